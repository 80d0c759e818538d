"""`mltheory diff OLD.json NEW.json`: added/removed claims, verdict changes, moved
figures, and a non-zero exit status on a regression."""

import json

import pytest

from mltheory.cli import main
from mltheory.diff import diff_reports


def _row(cid, verdict="VERIFIED", **metrics):
    return {"id": cid, "verdict": verdict, "evidence": {"examples": 10, "notes": [], "metrics": {
        name: {"value": v, "kind": k, "count": 1, "description": ""}
        for name, (k, v) in metrics.items()}}}


def _doc(*rows, seed=1, profile="quick", **extra):
    return {"schema": 1, "tool": "mltheory", "version": "t", "seed": seed, "profile": profile,
            "results": list(rows), **extra}


OLD = _doc(
    _row("a.bound", ratio=("max", 0.50), gap=("min", 2.0), n=("value", 100)),
    _row("a.erratum", "ERRATUM_CONFIRMED"),
    _row("a.gone"),
    _row("a.skip", "SKIPPED"),
)


def _write(tmp_path, name, doc):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_identical_reports_have_no_differences(tmp_path, capsys):
    old = _write(tmp_path, "old.json", OLD)
    assert main(["diff", old, old]) == 0
    out = capsys.readouterr().out
    assert "0 added, 0 removed, 0 verdict changes, 0 figures moved" in out
    assert out.rstrip().endswith("no regressions")


def test_added_removed_and_improvements_are_listed_without_failing(tmp_path, capsys):
    new = _doc(_row("a.bound", ratio=("max", 0.40), gap=("min", 2.05), n=("value", 150)),
               _row("a.erratum", "ERRATUM_CONFIRMED"), _row("a.new"),
               _row("a.skip", "VERIFIED"))
    code = main(["diff", _write(tmp_path, "o.json", OLD), _write(tmp_path, "n.json", new)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "  + a.new (VERIFIED)" in out and "  - a.gone (was VERIFIED)" in out
    assert "a.skip: SKIPPED -> VERIFIED" in out and "(regression)" not in out
    assert "max ratio: 0.5 -> 0.4 (-20%) (better)" in out
    assert "value n: 100 -> 150 (+50%)" in out
    assert "gap" not in out  # moved by 2.5 %, under the 10 % threshold


@pytest.mark.parametrize("new_rows, regression", [
    ([_row("a.bound", "FAILED"), _row("a.erratum", "ERRATUM_CONFIRMED")],
     "a.bound: VERIFIED -> FAILED"),
    ([_row("a.bound"), _row("a.erratum", "NOT_REFUTED")],
     "a.erratum: ERRATUM_CONFIRMED -> NOT_REFUTED"),
    ([_row("a.bound", ratio=("max", 0.9)), _row("a.erratum", "ERRATUM_CONFIRMED")],
     "a.bound: max ratio 0.5 -> 0.9"),
    ([_row("a.bound", gap=("min", 1.0)), _row("a.erratum", "ERRATUM_CONFIRMED")],
     "a.bound: min gap 2 -> 1"),
    ([_row("a.bound"), _row("a.erratum", "ERRATUM_CONFIRMED"), _row("a.fresh", "ERROR")],
     "a.fresh: new claim ERROR"),
])
def test_a_regression_exits_non_zero(tmp_path, capsys, new_rows, regression):
    code = main(["diff", _write(tmp_path, "o.json", OLD),
                 _write(tmp_path, "n.json", _doc(*new_rows))])
    assert code == 1
    d = diff_reports(OLD, _doc(*new_rows))
    assert regression in d.regressions
    assert "regression" in capsys.readouterr().out


def test_the_threshold_is_stated_on_the_command_line(tmp_path, capsys):
    new = _doc(_row("a.bound", ratio=("max", 0.56)), _row("a.erratum", "ERRATUM_CONFIRMED"))
    o, n = _write(tmp_path, "o.json", OLD), _write(tmp_path, "n.json", new)
    assert main(["diff", o, n]) == 1  # +12 % > 10 %
    assert main(["diff", o, n, "--threshold", "0.2"]) == 0
    with pytest.raises(SystemExit) as exc:
        main(["diff", o, n, "--threshold", "-1"])
    assert exc.value.code == 2


def test_figures_under_another_seed_are_listed_but_not_regressions(tmp_path, capsys):
    new = _doc(_row("a.bound", ratio=("max", 0.9)), _row("a.erratum", "ERRATUM_CONFIRMED"),
               seed=2)
    assert main(["diff", _write(tmp_path, "o.json", OLD), _write(tmp_path, "n.json", new)]) == 0
    out = capsys.readouterr().out
    assert "differ in seed/profile" in out and "max ratio: 0.5 -> 0.9 (+80%) (worse)" in out


def test_claims_a_partial_run_did_not_reach_are_not_removed(tmp_path, capsys):
    new = _doc(_row("a.bound"), interrupted=True, not_run=["a.erratum", "a.gone", "a.skip"])
    assert main(["diff", _write(tmp_path, "o.json", OLD), _write(tmp_path, "n.json", new)]) == 0
    out = capsys.readouterr().out
    assert "0 removed" in out and "not run in" in out and "partial report" in out


@pytest.mark.parametrize("content, problem", [
    (None, "no such file"),
    ("{not json", "not JSON"),
    ('{"tool": "other"}', "not an mltheory JSON report"),
    ('{"tool": "mltheory", "kind": "sweep", "claims": []}', "a seed-sweep report"),
])
def test_unreadable_reports_are_a_one_line_error(tmp_path, capsys, content, problem):
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    assert main(["diff", _write(tmp_path, "o.json", OLD), str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"bad.json: {problem}" in err
