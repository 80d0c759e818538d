"""Fixtures shared by the report tests (Markdown, HTML, browser)."""

import numpy as np
import pytest

from mltheory import ErratumKind, Expect, Method, claim, evidence
from mltheory.claims import get_claim, unregister
from mltheory.report import build_document
from mltheory.runner import run_claims


@pytest.fixture(scope="module")
def small_doc():
    """A run of four claims: a plotted bound, an erratum and its correction, a failure,
    one of them citing a book; and a statement with HTML in it."""

    def bound_holds(rng):
        for m in range(1, 30):
            observed = float(np.mean(rng.random(200) < 0.5 / m))
            evidence.series("observed", m, observed, kind="scatter", plot="Frequency against m",
                            xlabel="m", ylabel="probability")
            evidence.series("bound 1/m", m, 1 / m, kind="bound", plot="Frequency against m")
        evidence.worst("observed / bound", 0.9)
        evidence.headroom("observed / bound", 1 / 0.9)

    def wrong():
        raise AssertionError("x = 17: the printed inequality fails")

    def fixed():
        evidence.note("checked by hand")

    def crashes():
        raise AssertionError("a bug in the check")

    declared = [
        claim(id="reporttest.bound", source="Mohri et al. 2018, Thm 3.3",
              statement="The frequency is below 1/m <script>alert(1)</script>.",
              method=Method.SIMULATION, tags=("demo", "bound"))(bound_holds),
        claim(id="reporttest.wrong", source="003 §9.1 (9.5)",
              statement="The note's inequality, as printed.", method=Method.PROPERTY,
              expect=Expect.REFUTED, corrected_by="reporttest.fixed", kind=ErratumKind.SYMBOL,
              explanation="The inequality is turned the wrong way.")(wrong),
        claim(id="reporttest.fixed", source="003 §9.1 (9.5)",
              statement="The corrected inequality holds.", method=Method.PROPERTY,
              tags=("demo",))(fixed),
        claim(id="reporttest.broken", source="001 §二.3",
              statement="A claim whose check is broken.", method=Method.ENUMERATION)(crashes),
    ]
    try:
        rep = run_claims([get_claim(f.mltheory_claim.id) for f in declared])
    finally:
        for f in declared:
            unregister(f.mltheory_claim.id)
    return build_document(rep.results, profile="quick", seed=3, version="t")
