"""The runner produces each verdict correctly, with evidence, deterministically."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mltheory import ErratumKind, Expect, Method, SkipClaim, Verdict, claim, evidence
from mltheory.claims import get_claim, unregister
from mltheory.report import build_document, render_markdown
from mltheory.runner import run_claim, run_claims


@pytest.fixture
def declare():
    made = []

    def make(cid, func, **kw):
        made.append(cid)
        meta = dict(id=cid, source="001 §二.3", statement="a statement long enough",
                    method=Method.PROPERTY)
        meta.update(kw)
        claim(**meta)(func)
        return get_claim(cid)

    yield make
    for cid in made:
        unregister(cid)


@given(x=st.integers(0, 1000))
def _true_property(x):
    evidence.worst("x / 1000", x / 1000)
    assert x * x >= 0


@given(x=st.integers(0, 1000))
def _false_property(x):
    assert x < 17, f"x = {x}"


def test_a_true_claim_is_verified_with_examples_counted(declare):
    r = run_claim(declare("scratch.true", _true_property))
    assert r.verdict is Verdict.VERIFIED
    assert r.evidence.examples >= 50
    assert r.evidence.metrics["x / 1000"].value == pytest.approx(1.0)


def test_a_false_claim_fails_with_the_shrunk_counterexample(declare):
    r = run_claim(declare("scratch.false", _false_property))
    assert r.verdict is Verdict.FAILED
    assert "x = 17" in r.counterexample  # Hypothesis shrinks to the boundary
    assert "x=17" in r.counterexample.replace(" ", "")


def test_an_expected_refutation_found_is_an_erratum_confirmed(declare):
    declare("scratch.fix", _true_property)
    r = run_claim(declare("scratch.erratum", _false_property, expect=Expect.REFUTED,
                          corrected_by="scratch.fix", explanation="wrong bound",
                          kind=ErratumKind.CONSTANT))
    assert r.verdict is Verdict.ERRATUM_CONFIRMED and r.passed
    assert "x = 17" in r.counterexample


def test_an_expected_refutation_not_found_means_no_teeth(declare):
    declare("scratch.fix2", _true_property)
    r = run_claim(declare("scratch.toothless", _true_property, expect=Expect.REFUTED,
                          corrected_by="scratch.fix2", kind=ErratumKind.CONSTANT))
    assert r.verdict is Verdict.NOT_REFUTED and not r.passed


def test_a_crashing_check_is_an_error_not_a_refutation(declare):
    def crash():
        raise ZeroDivisionError("boom")

    r = run_claim(declare("scratch.crash", crash))
    assert r.verdict is Verdict.ERROR and not r.passed
    assert "ZeroDivisionError" in r.error and "boom" in r.reason


def test_a_crash_inside_a_property_is_an_error(declare):
    @given(x=st.integers(0, 10))
    def crash(x):
        if x > 3:
            raise ValueError("bad input")

    r = run_claim(declare("scratch.crash2", crash))
    assert r.verdict is Verdict.ERROR
    assert "ValueError" in r.counterexample


def test_a_skipping_check_is_skipped_with_its_reason(declare):
    def skip():
        raise SkipClaim("needs a GPU")

    r = run_claim(declare("scratch.skip", skip))
    assert r.verdict is Verdict.SKIPPED and r.reason == "needs a GPU"


def test_checks_receive_a_generator_seeded_from_id_and_seed_and_the_scale(declare):
    seen = []

    def check(rng, scale):
        seen.append((float(rng.random()), scale))

    c = declare("scratch.rng", check)
    run_claim(c, seed=1)
    run_claim(c, seed=1)
    run_claim(c, seed=2)
    run_claim(c, seed=1, profile="thorough")
    assert seen[0] == seen[1] and seen[0][0] != seen[2][0]
    assert [s for _, s in seen] == [1, 1, 1, 10]


def test_warnings_raised_by_a_check_are_counted(declare):
    import warnings

    def check():
        warnings.warn("careful", RuntimeWarning, stacklevel=1)

    r = run_claim(declare("scratch.warn", check))
    assert r.warnings == {"RuntimeWarning": 1}


def test_an_unknown_profile_is_rejected(declare):
    with pytest.raises(ValueError, match="profile"):
        run_claim(declare("scratch.p", lambda: None), profile="fast")


def test_the_same_seed_gives_the_same_json_apart_from_timings(declare):
    @given(x=st.floats(0, 1))
    def prop(x):
        evidence.worst("x", x)

    def sim(rng):
        evidence.record("draw", float(rng.normal()))
        evidence.note(f"mean of 10: {np.mean(rng.normal(size=10)):.6f}")

    claims = [declare("scratch.det1", prop), declare("scratch.det2", sim),
              declare("scratch.det3", _false_property)]
    docs = []
    for _ in range(2):
        rep = run_claims(claims, seed=7)
        docs.append(json.dumps(build_document(rep.results, profile="quick", seed=7,
                                              version="t", timings=False), sort_keys=True))
    assert docs[0] == docs[1]
    other = run_claims(claims, seed=8)
    assert json.dumps(build_document(other.results, profile="quick", seed=8, version="t",
                                     timings=False), sort_keys=True) != docs[0]


def test_the_report_shows_summary_errata_counterexample_and_correction(declare):
    declare("scratch.fixed", _true_property, statement="the corrected statement text")
    declare("scratch.wrong", _false_property, expect=Expect.REFUTED,
            corrected_by="scratch.fixed", explanation="the bound is off by a lot",
            kind=ErratumKind.CONSTANT,
            statement="the note's statement text", source="003 §4.2 (4.9)")
    declare("scratch.broken", _false_property, source="002 'Pocket PLA'")
    rep = run_claims([get_claim(i) for i in ("scratch.fixed", "scratch.wrong", "scratch.broken")])
    doc = build_document(rep.results, profile="quick", seed=1, version="t")
    assert doc["summary"]["run"] == 3
    assert doc["summary"]["VERIFIED"] == 1 and doc["summary"]["ERRATUM_CONFIRMED"] == 1
    assert doc["summary"]["FAILED"] == 1
    assert set(doc["results"][0]) >= {"id", "source", "statement", "method", "verdict",
                                      "evidence", "counterexample", "expect", "corrected_by"}
    md = render_markdown(doc)
    assert "3 claims run: 1 verified, 1 errata confirmed, 1 failed" in md
    errata = md.split("## Errata in the notes")[1].split("## Claims by source")[0]
    assert "the note's statement text" in errata
    assert "the bound is off by a lot" in errata
    assert "`scratch.fixed` (VERIFIED)" in errata and "x = 17" in errata
    assert "## Problems" in md and "scratch.broken" in md.split("## Errata")[0]
    assert "### 003 §4 —" in md and "### 001 §二 —" in md and "### 002 —" in md


def test_the_seed_steers_the_hypothesis_search_reproducibly(declare):
    drawn = []

    @given(x=st.integers(0, 10**9))
    def prop(x):
        drawn.append(x)

    c = declare("scratch.seeded_search", prop)
    runs = []
    for seed in (1, 1, 2):
        drawn.clear()
        run_claim(c, seed=seed)
        runs.append(list(drawn))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_given_checks_also_receive_the_scale(declare):
    seen = set()

    @given(x=st.integers(0, 3))
    def prop(x, scale):
        seen.add(scale)

    c = declare("scratch.given_scale", prop)
    run_claim(c, profile="thorough")
    run_claim(c, profile="quick")
    assert seen == {1, 10}


def test_examples_do_not_depend_on_which_project_modules_are_loaded(declare, tmp_path,
                                                                     monkeypatch):
    """Hypothesis mixes literal constants of loaded local modules into generated data; the
    runner must shield claims from that, or a report would depend on import order."""
    import importlib
    import sys

    drawn = []

    @given(x=st.integers(-10**6, 10**6), f=st.floats(-1e6, 1e6))
    def prop(x, f):
        drawn.append((x, f))

    c = declare("scratch.constants", prop)
    run_claim(c, seed=3)
    first = list(drawn)
    # A newly loaded local module full of distinctive literals.
    literals = ", ".join(str(654321 + 7 * i) for i in range(300))
    floats = ", ".join(f"{12345.678 + i}" for i in range(300))
    (tmp_path / "constants_bait.py").write_text(f"A = [{literals}]\nB = [{floats}]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("constants_bait")
    try:
        drawn.clear()
        run_claim(c, seed=3)
        assert drawn == first
    finally:
        sys.modules.pop("constants_bait", None)


def test_a_bound_claim_that_records_no_headroom_is_an_error(declare):
    def silent():
        evidence.worst("observed / bound", 0.5)

    def loud():
        evidence.headroom("observed / bound", 2.0)

    quiet = run_claim(declare("scratch.bound_silent", silent, tags=("bound",)))
    assert quiet.verdict is Verdict.ERROR and "headroom" in quiet.reason
    told = run_claim(declare("scratch.bound_told", loud, tags=("bound",)))
    assert told.verdict is Verdict.VERIFIED and told.evidence.headroom == 2.0
    # untagged claims need none
    assert run_claim(declare("scratch.not_bound", silent)).verdict is Verdict.VERIFIED


def test_an_erratum_records_its_kind_and_only_errata_take_one(declare):
    def fails():
        raise AssertionError("as printed, false")

    declare("scratch.fixed_form", lambda: None)
    c = declare("scratch.kinded", fails, expect=Expect.REFUTED,
                corrected_by="scratch.fixed_form", kind=ErratumKind.CONSTANT)
    assert c.as_dict()["kind"] == "CONSTANT" and c.kind.outright
    assert not ErratumKind.MISSING_CONDITION.outright and not ErratumKind.SHORTHAND.outright
    with pytest.raises(ValueError, match="kind only goes with"):
        declare("scratch.kind_holds", fails, kind=ErratumKind.SYMBOL)
    with pytest.raises(TypeError, match="ErratumKind"):
        declare("scratch.kind_str", fails, expect=Expect.REFUTED,
                corrected_by="scratch.fixed_form", kind="CONSTANT")
