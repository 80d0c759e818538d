"""Parallel runs (--jobs), seed sweeps (--seeds) and dask.distributed (--scheduler) give
the results of a serial run; Ctrl-C keeps what has finished."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mltheory import _workers
from mltheory._workers import WorkerSetup
from mltheory.claims import registered_claims, unregister
from mltheory.cli import main
from mltheory.report import build_document
from mltheory.runner import discover, run_claims, select
from mltheory.sweep import build_sweep_document, parse_seeds, run_sweep

# Claims of every kind: Hypothesis with a worst-case figure, a seeded simulation, an
# erratum, a failure, a crash, a warning, a skip; one of them flips with the seed.
PAR_MODULE = textwrap.dedent('''
    import warnings
    import numpy as np
    from hypothesis import given, strategies as st
    from mltheory import ErratumKind, Expect, Method, SkipClaim, claim, evidence

    @claim(id="parcheck.squares", source="003 §9.1", statement="A square is never negative.",
           method=Method.PROPERTY)
    @given(x=st.floats(-1e3, 1e3))
    def squares(x):
        evidence.worst("x^2 / 1e6", x * x / 1e6)
        assert x * x >= 0

    @claim(id="parcheck.sim", source="003 §9.2", statement="A simulation recording draws.",
           method=Method.SIMULATION)
    def sim(rng):
        evidence.record("draw", float(rng.normal()))
        evidence.worst("max of 50 draws", float(np.max(rng.normal(size=50))))
        evidence.note(f"mean {np.mean(rng.normal(size=10)):.6f}")

    @claim(id="parcheck.wrong", source="003 §9.3", statement="(wrong) x <= 17 for every x.",
           method=Method.PROPERTY, expect=Expect.REFUTED, corrected_by="parcheck.squares",
           kind=ErratumKind.CONSTANT)
    @given(x=st.integers(0, 1000))
    def wrong(x):
        assert x <= 17, f"x = {x}"

    @claim(id="parcheck.fails", source="003 §9.4", statement="A false statement, x < 3.",
           method=Method.PROPERTY)
    @given(x=st.integers(0, 10))
    def fails(x):
        assert x < 3

    @claim(id="parcheck.crashes", source="003 §9.4", statement="A check that crashes.",
           method=Method.ENUMERATION)
    def crashes():
        raise ZeroDivisionError("boom")

    @claim(id="parcheck.warns", source="003 §9.4", statement="A check that warns twice.",
           method=Method.ENUMERATION)
    def warns():
        warnings.warn("careful", RuntimeWarning, stacklevel=1)
        warnings.warn("careful again", UserWarning, stacklevel=1)

    @claim(id="parcheck.skips", source="003 §9.4", statement="A check that skips itself.",
           method=Method.ENUMERATION)
    def skips():
        raise SkipClaim("needs a GPU")

    @claim(id="parcheck.address", source="003 §9.4", statement="A refutation showing an object.",
           method=Method.ENUMERATION)
    def address(rng):
        assert False, f"state {rng}"

    @claim(id="parcheck.coin", source="003 §9.5", statement="A coin that lands heads.",
           method=Method.SIMULATION)
    def coin(rng):
        u = float(rng.random())
        evidence.worst("u", u)
        assert u < 0.5, f"u = {u}"
''')

SETUP = WorkerSetup(modules=("usermod_par",), builtin=False, entry_points=False)


def _cleanup(prefixes, modules):
    for name in modules:
        sys.modules.pop(name, None)
    for c in registered_claims():
        if c.id.startswith(prefixes):
            unregister(c.id)


@pytest.fixture
def par_claims(tmp_path, monkeypatch):
    (tmp_path / "usermod_par.py").write_text(PAR_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    claims = select(discover(["usermod_par"], builtin=False, entry_points=False),
                    ["parcheck.*"])
    yield claims
    _cleanup(("parcheck.",), ("usermod_par",))


def _doc(report, seed):
    return json.dumps(build_document(report.results, profile="quick", seed=seed, version="t",
                                     timings=False), sort_keys=True)


def test_jobs_give_the_results_of_a_serial_run(par_claims):
    serial = run_claims(par_claims, seed=5)
    parallel = run_claims(par_claims, seed=5, jobs=2, setup=SETUP)
    assert not parallel.interrupted and parallel.not_run == []
    assert [r.claim for r in parallel.results] == [r.claim for r in serial.results]
    assert _doc(parallel, 5) == _doc(serial, 5)
    verdicts = {r.claim.id: r.verdict.value for r in parallel.results}
    assert verdicts["parcheck.crashes"] == "ERROR" and verdicts["parcheck.skips"] == "SKIPPED"
    assert verdicts["parcheck.wrong"] == "ERRATUM_CONFIRMED"
    shown = next(r for r in parallel.results if r.claim.id == "parcheck.address")
    assert shown.counterexample == "AssertionError: state Generator(PCG64)"  # no address


def test_a_worker_that_cannot_find_a_claim_stops_the_run(par_claims):
    with pytest.raises(_workers.WorkerError, match="not registered in the worker"):
        run_claims(par_claims, jobs=2, setup=WorkerSetup(builtin=False, entry_points=False))


def test_jobs_must_be_positive(par_claims):
    with pytest.raises(ValueError, match="jobs"):
        run_claims(par_claims, jobs=0)


@pytest.mark.parametrize("text, seeds", [
    ("1-20", list(range(1, 21))), ("3", [3]), ("1,4,9", [1, 4, 9]),
    (" 1-3 , 2, 7 ", [1, 2, 3, 7]),
])
def test_seed_lists_and_ranges(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text", ["", "a", "5-1", "1-", "1,,2", "-3"])
def test_bad_seed_lists_are_rejected(text):
    with pytest.raises(ValueError, match="seed"):
        parse_seeds(text)


def test_a_sweep_reports_flips_and_the_worst_figure_over_all_seeds(par_claims):
    seeds = [1, 2, 3, 4, 5, 6]
    chosen = [c for c in par_claims if c.id in ("parcheck.coin", "parcheck.sim")]
    sweep = run_sweep(chosen, seeds)
    doc = build_sweep_document(sweep, version="t", timings=False)
    rows = {r["id"]: r for r in doc["claims"]}
    coin = rows["parcheck.coin"]
    singles = {s: run_claims(chosen, seed=s).results for s in seeds}
    verdicts = {str(s): next(r for r in singles[s] if r.claim.id == "parcheck.coin")
                .verdict.value for s in seeds}
    assert coin["verdicts"] == verdicts
    assert len(set(verdicts.values())) == 2 and coin["flipped"] is True  # seeds 1-6 flip
    assert coin["failing_seeds"] == [int(s) for s, v in verdicts.items() if v == "FAILED"]
    assert coin["first_failure"]["detail"].startswith("AssertionError: u = ")
    draws = {s: next(r for r in singles[s] if r.claim.id == "parcheck.sim")
             .evidence.metrics["max of 50 draws"].value for s in seeds}
    worst_seed = max(draws, key=draws.get)
    assert rows["parcheck.sim"]["worst"]["max of 50 draws"] == {
        "value": draws[worst_seed], "kind": "max", "seed": worst_seed, "description": ""}
    assert rows["parcheck.sim"]["flipped"] is False
    assert doc["summary"] == {"claims": 2, "seeds": 6, "runs": 12, "flipped": 1, "failing": 1}
    assert doc["per_seed"]["1"]["run"] == 2
    parallel = run_sweep(chosen, seeds, jobs=2, setup=SETUP)
    assert build_sweep_document(parallel, version="t", timings=False) == doc


def test_the_cli_sweep_writes_its_report_and_fails_on_a_flip(par_claims, capsys):
    code = main(["verify", "parcheck.coin", "parcheck.squares", "--claims", "usermod_par",
                 "--seeds", "1-6"])
    out = capsys.readouterr().out
    assert code == 1
    assert "2 claims × 6 seeds (12 runs): 1 flipped" in out
    assert "FLIPPED: parcheck.coin" in out
    doc = json.loads(open("sweep-report.json").read())
    assert doc["kind"] == "sweep" and doc["seeds"] == [1, 2, 3, 4, 5, 6]
    md = open("sweep-report.md").read()
    assert "## Problems" in md and "`parcheck.coin` — verdict flipped" in md
    assert not os.path.exists("verification-report.json")
    assert main(["verify", "parcheck.squares", "--claims", "usermod_par", "--seeds", "1,2",
                 "--json", "s.json", "--report", "s.md"]) == 0
    assert json.loads(open("s.json").read())["summary"]["flipped"] == 0


def test_seed_and_seeds_exclude_each_other(par_claims):
    with pytest.raises(SystemExit) as exc:
        main(["verify", "--seed", "3", "--seeds", "1-2"])
    assert exc.value.code == 2


def test_the_cli_with_jobs_writes_the_serial_report(par_claims, capsys):
    assert main(["verify", "parcheck.*", "--claims", "usermod_par", "--json", "serial.json",
                 "--report", "serial.md"]) == 1
    assert main(["verify", "parcheck.*", "--claims", "usermod_par", "--json", "par.json",
                 "--report", "par.md", "--jobs", "2"]) == 1

    def strip(path):
        doc = json.loads(open(path).read())
        doc.pop("duration_s")
        for r in doc["results"]:
            r.pop("duration_s")
        return doc

    assert strip("par.json") == strip("serial.json")


# --- dask.distributed -----------------------------------------------------------------

def test_a_dask_local_cluster_gives_the_serial_results(par_claims):
    distributed = pytest.importorskip("distributed")
    serial = run_claims(par_claims, seed=9)
    setup = WorkerSetup(modules=SETUP.modules, builtin=False, entry_points=False,
                        sys_path=(os.getcwd(),))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        remote = run_claims(par_claims, seed=9, scheduler=client, setup=setup)
        sweep = run_sweep(par_claims[:2], [1, 2], scheduler=client, setup=setup)
    assert _doc(remote, 9) == _doc(serial, 9)
    assert build_sweep_document(sweep, version="t", timings=False) == build_sweep_document(
        run_sweep(par_claims[:2], [1, 2]), version="t", timings=False)


def test_the_cli_sends_the_work_to_a_scheduler(par_claims, capsys):
    distributed = pytest.importorskip("distributed")
    assert main(["verify", "parcheck.*", "--claims", "usermod_par", "--json", "serial.json",
                 "--report", "serial.md"]) == 1
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster:
        code = main(["verify", "parcheck.*", "--claims", "usermod_par", "--json", "d.json",
                     "--report", "d.md", "--scheduler", cluster.scheduler_address])
    assert code == 1
    a, b = (json.loads(open(p).read()) for p in ("serial.json", "d.json"))
    assert [(r["id"], r["verdict"], r["evidence"]) for r in a["results"]] == [
        (r["id"], r["verdict"], r["evidence"]) for r in b["results"]]


def test_an_unreachable_scheduler_is_a_one_line_error_before_any_claim(par_claims, capsys,
                                                                      monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(_workers, "CONNECT_TIMEOUT_S", 1)
    code = main(["verify", "parcheck.*", "--claims", "usermod_par",
                 "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("mltheory: cannot reach the dask scheduler at 'tcp://127.0.0.1:9'")
    assert err.count("\n") == 1 and not os.path.exists("verification-report.json")
    assert main(["verify", "--claims", "usermod_par", "--scheduler", "x", "--jobs", "2"]) == 2


# --- Ctrl-C ---------------------------------------------------------------------------

INTERRUPT_MODULE = textwrap.dedent('''
    import time
    from mltheory import Method, claim

    @claim(id="intcheck.a_fast", source="003 §9.1", statement="Runs quickly and holds.",
           method=Method.ENUMERATION)
    def a_fast():
        pass

    @claim(id="intcheck.b_interrupted", source="003 §9.1", statement="The user presses Ctrl-C.",
           method=Method.ENUMERATION)
    def b_interrupted():
        time.sleep(0.5)
        raise KeyboardInterrupt

    @claim(id="intcheck.c_slow", source="003 §9.1", statement="Would take a long while.",
           method=Method.ENUMERATION)
    def c_slow():
        time.sleep(60)
''')


@pytest.fixture
def int_module(tmp_path, monkeypatch):
    (tmp_path / "usermod_int.py").write_text(INTERRUPT_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield "usermod_int"
    _cleanup(("intcheck.",), ("usermod_int",))


def test_ctrl_c_writes_the_partial_report_and_says_so(int_module, capsys):
    code = main(["verify", "intcheck.*", "--claims", int_module, "--json", "r.json",
                 "--report", "r.md"])
    err = capsys.readouterr().err
    assert code == 130
    assert "interrupted: 1 of 3 claims ran; partial report written to r.md and r.json" in err
    doc = json.loads(open("r.json").read())
    assert [r["id"] for r in doc["results"]] == ["intcheck.a_fast"]
    assert doc["interrupted"] is True
    assert doc["not_run"] == ["intcheck.b_interrupted", "intcheck.c_slow"]
    assert "Partial report: the run was interrupted; 2 selected claims did not run" in open(
        "r.md").read()


def test_ctrl_c_stops_the_workers_and_keeps_finished_results(int_module):
    claims = select(discover([int_module], builtin=False, entry_points=False), ["intcheck.*"])
    start = time.monotonic()
    rep = run_claims(claims, jobs=2, setup=WorkerSetup(modules=(int_module,), builtin=False,
                                                       entry_points=False))
    assert time.monotonic() - start < 45  # the 60 s claim was stopped, not waited for
    assert rep.interrupted and not rep.ok
    assert [r.claim.id for r in rep.results] == ["intcheck.a_fast"]
    assert "intcheck.c_slow" in rep.not_run


def test_a_real_sigint_keeps_the_partial_report(int_module, tmp_path):
    text = INTERRUPT_MODULE.replace("time.sleep(0.5)\n    raise KeyboardInterrupt",
                                    "time.sleep(60)")
    (tmp_path / "usermod_sig.py").write_text(text.replace("intcheck.", "sigcheck."))
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mltheory", "verify", "sigcheck.*", "--claims", "usermod_sig",
         "--json", "r.json", "--report", "r.md"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 120
        seen = ""
        while "sigcheck.a_fast: VERIFIED" not in seen and time.monotonic() < deadline:
            seen += proc.stderr.readline()
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "partial report written to r.md and r.json" in err
    assert "Traceback" not in err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert [r["id"] for r in doc["results"]] == ["sigcheck.a_fast"] and doc["interrupted"]
