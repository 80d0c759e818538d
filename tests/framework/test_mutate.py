"""scripts/mutate.py: the mutation operators, the sampling and the kill decision.

No mutant is run here (that takes minutes per family); the pieces that decide what a
mutant is and whether it was killed are tested on small inputs.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mutate.py"


@pytest.fixture(scope="module")
def mutate():
    spec = importlib.util.spec_from_file_location("mutate_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate_script"] = module
    spec.loader.exec_module(module)
    return module


SOURCE = '''"""A module docstring."""

import numpy as np

__all__ = ["f", "loop"]


def f(x: float, y: float = 2.0, *, flag: bool = True) -> float:
    """Docstring: 1 + 2 is not mutated."""
    if x < 0:
        raise ValueError(f"x must be >= 0, got {x + 1}")
    if not flag and x == y:
        return -x
    z = np.sum(np.ones((3, 2)) * x, axis=0, keepdims=False)
    return float(z[0] - y / 3) if flag or x > 1 else x


def loop(n: int) -> list:
    out = []
    total = 0
    for i in range(n):
        total += i
        out.append(total)
        if total > 10:
            break
    return out


def _check_positive(v):
    return v > 0
'''

EXPECTED_OPS = {
    "compare", "arithmetic", "constant", "default", "bool", "unary-minus", "not",
    "and-or", "range", "return-scale", "delete", "axis", "break",
}


def test_every_operator_yields_a_compilable_different_module(mutate):
    sites = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    assert {s.op for s in sites} == EXPECTED_OPS
    original = ast.dump(ast.parse(SOURCE))
    for s in sites:
        mutated = mutate.apply_site(SOURCE, s)
        compile(mutated, "mutant", "exec")
        assert ast.dump(ast.parse(mutated)) != original, s
        # only the site changed: everything before it is the same text
        assert mutated.encode()[: s.start] == SOURCE.encode()[: s.start]


def test_docstrings_raise_annotations_all_and_validation_are_left_alone(mutate):
    sites = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    lines = {s.line for s in sites}
    assert 1 not in lines and 5 not in lines  # module docstring, __all__
    assert 9 not in lines and 10 not in lines and 11 not in lines  # docstring, if x < 0: raise
    assert 8 in lines  # the defaults of f
    assert not any(s.qualname == "_check_positive" for s in sites)
    defaults = {(s.before, s.after) for s in sites if s.op == "default"}
    assert ("2.0", "(3.0)") in defaults and ("2.0", "(1.0)") in defaults
    assert ("True", "(False)") in defaults


def test_specific_mutations(mutate):
    sites = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    pairs = {(s.op, s.before, s.after) for s in sites}
    assert ("compare", "x == y", "(x != y)") in pairs
    assert ("and-or", "flag or x > 1", "(flag and x > 1)") in pairs
    assert ("axis", "0", "(1)") in pairs
    assert ("range", "range(n)", "(range(n - 1))") in pairs
    assert ("delete", "total += i", "pass") in pairs
    assert ("delete", "out.append(total)", "pass") in pairs
    assert ("break", "break", "pass") in pairs
    assert ("unary-minus", "-x", "(x)") in pairs
    assert ("not", "not flag", "(flag)") in pairs
    assert any(op == "return-scale" and after.startswith("(0.5 *") for op, _, after in pairs)
    # the list-returning function is not scaled
    assert not any(s.op == "return-scale" and s.qualname == "loop" for s in sites)
    # functions are recorded by the first line of their code (decorators included)
    assert {s.function for s in sites if s.qualname == "f"} == {8}


def test_a_mutated_toy_really_behaves_differently(mutate):
    sites = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    site = next(s for s in sites if s.op == "range")
    ns_orig, ns_mut = {}, {}
    exec(compile(SOURCE, "orig", "exec"), ns_orig)
    exec(compile(mutate.apply_site(SOURCE, site), "mut", "exec"), ns_mut)
    assert ns_orig["loop"](4) == [0, 1, 3, 6]
    assert ns_mut["loop"](4) == [0, 1, 3]


def test_sampling_is_deterministic_and_seed_dependent(mutate):
    sites = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    a = mutate.sample_sites(sites, 5, seed=0, family="toy")
    b = mutate.sample_sites(list(reversed(sites)), 5, seed=0, family="toy")
    c = mutate.sample_sites(sites, 5, seed=1, family="toy")
    assert [s.id for s in a] == [s.id for s in b]
    assert [s.id for s in a] != [s.id for s in c]
    assert len(mutate.sample_sites(sites, 10_000, 0, "toy")) == len(sites)


def test_the_kill_decision_from_two_verdict_maps(mutate):
    base = {"a.x": "VERIFIED", "a.y": "ERRATUM_CONFIRMED", "a.z": "VERIFIED"}
    assert mutate.first_difference(base, dict(base)) is None
    assert mutate.first_difference(base, {**base, "a.y": "NOT_REFUTED"}) == (
        "a.y: ERRATUM_CONFIRMED -> NOT_REFUTED"
    )
    assert mutate.first_difference(base, {**base, "a.x": "ERROR"}) == "a.x: VERIFIED -> ERROR"
    # a run that stopped early: the claims it did not reach are no difference
    assert mutate.first_difference(base, {"a.x": "VERIFIED"}, ["a.x", "a.y", "a.z"]) is None
    # the first difference in the given order is reported
    changed = {"a.x": "FAILED", "a.z": "FAILED"}
    assert mutate.first_difference(base, changed, ["a.z", "a.x"]).startswith("a.z")
    assert mutate.first_difference(base, {"a.new": "VERIFIED"}) == "a.new: absent -> VERIFIED"


def test_claims_for_a_site_follow_the_trace(mutate):
    site = mutate.find_sites(SOURCE, "algorithms/toy/_mod.py")
    in_f = next(s for s in site if s.qualname == "f")
    module_level = mutate.Site(
        path="algorithms/toy/_mod.py", index=0, line=3, op="constant", before="1",
        after="(2)", function=None, qualname="<module>", start=0, end=0, text="",
    )
    base = {
        "touched": {
            "<import>": [["algorithms/toy/_mod.py", 1]],
            "c.slow": [["algorithms/toy/_mod.py", 8]],
            "c.fast": [["algorithms/toy/_mod.py", 8], ["algorithms/toy/_mod.py", 18]],
            "c.other": [["algorithms/toy/_other.py", 3]],
            "c.loop": [["algorithms/toy/_mod.py", 18]],
        },
        "durations": {"c.slow": 5.0, "c.fast": 1.0, "c.other": 0.1, "c.loop": 2.0},
        "verdicts": {},
    }
    assert mutate.claims_for(in_f, base) == ["c.fast", "c.slow"]
    assert mutate.claims_for(module_level, base) == ["c.fast", "c.loop", "c.slow"]
    unused = mutate.Site(**{**module_level.__dict__, "function": 28, "qualname": "g"})
    assert mutate.claims_for(unused, base) == []


def test_a_timeout_kills_only_when_the_longer_retry_times_out_too(mutate, monkeypatch, tmp_path):
    site = next(s for s in mutate.find_sites(SOURCE, "algorithms/toy/_mod.py") if s.qualname == "f")
    base = {
        "touched": {"c.a": [["algorithms/toy/_mod.py", 8]]},
        "durations": {"c.a": 10.0},
        "verdicts": {"c.a": "VERIFIED"},
    }
    args = type("Args", (), {"timeout": None, "profile": "quick", "seed": 0})()
    monkeypatch.setattr(mutate, "_make_copy", lambda where, s: tmp_path)
    budgets = []

    def worker(outcomes):
        def run(root, spec, budget):
            budgets.append(budget)
            return outcomes[len(budgets) - 1]
        return run

    # slow only the first time (a loaded machine): the retry's verdicts decide
    monkeypatch.setattr(mutate, "_run_worker", worker(
        [(None, "timeout"), ({"difference": None, "verdicts": {"c.a": "VERIFIED"}}, "")]))
    outcome = mutate.run_mutant(site, base, args)
    assert outcome.status == "survived"
    first = mutate.TIMEOUT_FACTOR * 10.0 + mutate.TIMEOUT_SLACK
    assert budgets == [first, first * mutate.TIMEOUT_RETRY]
    # slow both times: killed by timeout, with both budgets named
    budgets.clear()
    monkeypatch.setattr(mutate, "_run_worker", worker([(None, "timeout"), (None, "timeout")]))
    outcome = mutate.run_mutant(site, base, args)
    assert outcome.status == "killed-timeout"
    assert f"{first:.0f} s" in outcome.detail and f"{first * 4:.0f} s" in outcome.detail
    # a verdict that changes on the retry is a kill by the claims
    budgets.clear()
    monkeypatch.setattr(mutate, "_run_worker", worker(
        [(None, "timeout"), ({"difference": None, "verdicts": {"c.a": "FAILED"}}, "")]))
    assert mutate.run_mutant(site, base, args).status == "killed-claims"
