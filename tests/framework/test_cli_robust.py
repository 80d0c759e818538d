"""A CLI that never loses a run: output paths checked before the first claim, atomic
writes, one-line errors for bad --claims modules."""

import errno
import json
import os
import stat
import sys
import textwrap

import pytest

from mltheory import _output, cli
from mltheory.claims import registered_claims, unregister
from mltheory.cli import main

GOOD = textwrap.dedent('''
    from mltheory import Method, claim

    @claim(id="robcheck.holds", source="003 §9.1", statement="One plus one is two, surely.",
           method=Method.ENUMERATION)
    def holds():
        assert 1 + 1 == 2
''')


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "usermod_rob.py").write_text(GOOD)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith("usermod_rob")]:
        sys.modules.pop(name, None)
    for c in registered_claims():
        if c.id.startswith("robcheck."):
            unregister(c.id)


def _verify(*extra):
    return main(["verify", "robcheck.*", "--claims", "usermod_rob", *extra])


def _one_line(err):
    assert err.count("\n") == 1 and err.startswith("mltheory: "), err
    return err


@pytest.mark.parametrize("option", ["--report", "--json"])
@pytest.mark.parametrize("case, expected", [
    ("missing_dir", "directory 'nowhere' does not exist"),
    ("directory", "is a directory"),
    ("read_only", "is a read-only file"),
    ("under_a_file", "'afile' is not a directory"),
])
def test_bad_output_paths_fail_before_any_claim_runs(workdir, capsys, option, case, expected):
    (workdir / "adir").mkdir()
    (workdir / "afile").write_text("x")
    ro = workdir / "ro.txt"
    ro.write_text("keep me")
    ro.chmod(stat.S_IRUSR | stat.S_IRGRP)
    path = {"missing_dir": "nowhere/r.out", "directory": "adir", "read_only": "ro.txt",
            "under_a_file": "afile/r.out"}[case]
    assert _verify(option, path) == 2
    err = _one_line(capsys.readouterr().err)
    assert f"{option} '{path}': {expected}" in err
    assert "robcheck.holds" not in err  # no progress line: nothing ran
    assert ro.read_text() == "keep me"


def test_two_options_naming_one_file_is_an_error(workdir, capsys):
    assert _verify("--report", "same.out", "--json", "./same.out") == 2
    assert "the same file as --report" in _one_line(capsys.readouterr().err)


def test_reports_are_written_atomically_with_the_usual_mode(workdir, capsys):
    assert _verify("--report", "r.md", "--json", "r.json") == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat("r.json").st_mode) == 0o666 & ~umask
    assert [p.name for p in workdir.iterdir() if p.name.startswith(".")] == []


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(workdir, monkeypatch):
    target = workdir / "r.json"
    target.write_text("old report")
    target.chmod(0o640)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_output.os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        _output.atomic_write_text(target, "new report")
    assert target.read_text() == "old report"
    assert sorted(p.name for p in workdir.iterdir()) == ["r.json", "usermod_rob.py"]
    monkeypatch.undo()
    _output.atomic_write_text(target, "new report")
    assert target.read_text() == "new report" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_write_failing_after_the_run_keeps_the_results(workdir, capsys, monkeypatch):
    (workdir / "r.md").write_text("old markdown")
    real = cli.atomic_write_text

    def device_full(path, text):
        if str(path) in ("r.md", "r.json"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, text)

    monkeypatch.setattr(cli, "atomic_write_text", device_full)
    assert _verify("--report", "r.md", "--json", "r.json") == 2
    captured = capsys.readouterr()
    err = _one_line(captured.err.split("\n", 1)[1] if "[1/1]" in captured.err else captured.err)
    assert "cannot write the report ([Errno 28] No space left on device: 'r.md')" in err
    rescued = err.rsplit("the results are saved in ", 1)[1].strip()
    try:
        doc = json.loads(open(rescued).read())
        assert [r["id"] for r in doc["results"]] == ["robcheck.holds"]
    finally:
        os.unlink(rescued)
    assert (workdir / "r.md").read_text() == "old markdown"
    assert "1 claims run: 1 verified" in captured.out


BAD_MODULES = {
    "raises": ("raise RuntimeError('no database configured')\n",
               "claims module 'usermod_rob_bad': raises on import: RuntimeError: "
               "no database configured"),
    "syntax": ("def broken(:\n    pass\n",
               "claims module 'usermod_rob_bad': syntax error: "),
    "duplicate": (textwrap.dedent('''
        from mltheory import Method, claim
        @claim(id="perceptron.novikoff_bound", source="003 §9.1",
               statement="Somebody else's claim id.", method=Method.ENUMERATION)
        def dup():
            pass
    '''), "claims module 'usermod_rob_bad': duplicate claim id 'perceptron.novikoff_bound': "
          "already registered by properties."),
    "missing_dependency": ("import no_such_dependency_xyz\n",
                           "claims module 'usermod_rob_bad': cannot import it: no module "
                           "named 'no_such_dependency_xyz'"),
    "dangling_correction": (textwrap.dedent('''
        from mltheory import ErratumKind, Expect, Method, claim
        @claim(id="robcheck.bad_erratum", source="003 §9.1", statement="A wrong statement.",
               method=Method.ENUMERATION, expect=Expect.REFUTED, corrected_by="robcheck.nope",
               kind=ErratumKind.SYMBOL)
        def bad():
            assert False
    '''), "inconsistent claim registry: robcheck.bad_erratum: corrected_by 'robcheck.nope' "
          "is not registered"),
}


@pytest.mark.parametrize("command", ["list", "verify", "show"])
@pytest.mark.parametrize("case", sorted(BAD_MODULES))
def test_a_bad_claims_module_is_a_one_line_error(workdir, capsys, command, case):
    source, expected = BAD_MODULES[case]
    (workdir / "usermod_rob_bad.py").write_text(source)
    args = {"list": ["list"], "verify": ["verify", "robcheck.*"],
            "show": ["show", "robcheck.holds"]}[command]
    try:
        assert main([*args, "--claims", "usermod_rob", "--claims", "usermod_rob_bad"]) == 2
    finally:
        sys.modules.pop("usermod_rob_bad", None)
        unregister("robcheck.bad_erratum")
    err = _one_line(capsys.readouterr().err)
    assert expected in err
    if case == "syntax":
        assert "usermod_rob_bad.py, line 1" in err
    assert not os.path.exists("verification-report.json")


def test_a_bad_module_inside_a_claims_package_is_named(workdir, capsys):
    pkg = workdir / "usermod_rob_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "fine.py").write_text(GOOD)
    (pkg / "broken.py").write_text("1 / 0\n")
    assert main(["list", "--claims", "usermod_rob_pkg"]) == 2
    err = _one_line(capsys.readouterr().err)
    assert ("claims module 'usermod_rob_pkg.broken': raises on import: ZeroDivisionError: "
            "division by zero") in err
