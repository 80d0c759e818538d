"""The benchmark runner itself (``python -m benchmarks``), on a fake bench package.

Nothing is timed here: the fake cases count calls and return constants; the checks are
on the protocol (setup once and untimed, interleaving, repeats, gap, selection, error
rows, JSON/Markdown output).
"""

from __future__ import annotations

import json
import textwrap

import pytest

import benchmarks._runner
from benchmarks._harness import BenchCase
from benchmarks._runner import main, render_markdown, run_case, run_cases, selected

FAKE = textwrap.dedent('''
    from benchmarks._harness import BenchCase

    def cases(quick):
        n = 10 if quick else 1000
        return [
            BenchCase("alpha fit", n, ours=lambda d: d + 1, reference=lambda d: d + 2,
                      setup=lambda: 40, objective_gap=lambda a, b: abs(a - b),
                      repeats=2, params={"d": 3}, reference_name="ref.Alpha"),
            BenchCase("beta fit", n, ours=lambda d: 1, reference=None, repeats=1,
                      reference_name="none"),
        ]
''')

BROKEN = "def cases(quick):\n    raise RuntimeError('no data')\n"


@pytest.fixture(autouse=True)
def _no_collections(monkeypatch):
    """Nothing is timed here: skip the full garbage collection before each call."""
    monkeypatch.setattr(benchmarks._runner, "collect_garbage", lambda: None)


def test_run_case_setup_once_interleaved_and_gap():
    calls = []
    case = BenchCase(
        "x", 5,
        ours=lambda d: calls.append(("ours", d)) or 1.0,
        reference=lambda d: calls.append(("ref", d)) or 3.0,
        setup=lambda: calls.append(("setup", None)) or 7,
        objective_gap=lambda a, b: b - a,
        repeats=3,
    )
    row = run_case("fam", case)
    assert [c[0] for c in calls] == ["setup", "ours", "ref", "ref", "ours", "ours", "ref"]
    assert all(d == 7 for side, d in calls if side != "setup")
    assert len(row.ours_times) == len(row.reference_times) == 3
    assert row.objective_gap == 2.0 and row.error is None
    assert row.ratio == row.ours_s / row.reference_s


def test_error_rows_and_no_reference():
    def boom(_):
        raise ZeroDivisionError("bad")

    rows = run_cases([("fam", lambda q: [BenchCase("bad", 1, ours=boom, reference=None),
                                         BenchCase("alone", 1, ours=len, reference=None,
                                                   setup=lambda: [1])]),
                      ("broken", lambda q: 1 / 0)], quick=True)
    assert rows[0].error.startswith("ZeroDivisionError")
    assert rows[1].error is None and rows[1].reference_times == []
    assert rows[1].ratio != rows[1].ratio  # NaN: nothing to divide by
    assert rows[2].family == "broken" and rows[2].error
    assert "error" in render_markdown(rows, {"date": "d", "cpu": "c", "cores": 2,
                                             "python": "3"}, quick=True)


def test_selection_globs():
    case = BenchCase("SMO rbf", 1, ours=len, reference=None)
    assert selected("svm", case, [])
    assert selected("svm", case, ["svm"]) and selected("svm", case, ["s*/*rbf"])
    assert not selected("svm", case, ["svm/*linear*"]) and not selected("svm", case, ["lin*"])


def test_main_writes_json_and_markdown(tmp_path, monkeypatch, capsys):
    pkg = tmp_path / "fakebench"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bench_fake.py").write_text(FAKE)
    (pkg / "bench_broken.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    code = main(["--quick", "--only", "fake", "--json", str(out_json), "--markdown",
                 str(out_md)], bench_dir=pkg, package="fakebench")
    assert code == 0
    doc = json.loads(out_json.read_text())
    assert doc["profile"] == "quick" and {"cpu", "cores", "numpy", "date"} <= set(doc["machine"])
    names = [r["name"] for r in doc["results"]]
    assert names == ["alpha fit", "beta fit"]
    alpha = doc["results"][0]
    assert alpha["n"] == 10 and alpha["objective_gap"] == 1.0 and alpha["repeats"] == 2
    assert alpha["params"] == {"d": 3} and alpha["reference_name"] == "ref.Alpha"
    md = out_md.read_text()
    assert "| fake | alpha fit | 10 | d=3 |" in md and "ref.Alpha" in md
    # every module, the broken one giving an error row and a failing exit status
    code = main(["--no-write"], bench_dir=pkg, package="fakebench")
    assert code == 1
    assert "error: RuntimeError: no data" in capsys.readouterr().out
