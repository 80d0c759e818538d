"""The command line and the pytest plugin, as a user runs them."""

import json
import sys
import textwrap

import pytest

from mltheory.claims import registered_claims, unregister
from mltheory.cli import main

USER_MODULE = textwrap.dedent('''
    from hypothesis import given, strategies as st
    from mltheory import ErratumKind, Expect, Method, claim

    @claim(id="usercheck.squares_nonnegative", source="003 §9.1",
           statement="A square of a real number is never negative.",
           method=Method.PROPERTY, tags=("demo",))
    @given(x=st.floats(-1e6, 1e6))
    def squares_nonnegative(x):
        assert x * x >= 0

    @claim(id="usercheck.squares_below_x", source="003 §9.2",
           statement="(A wrong note) x^2 <= x for every real x.",
           method=Method.PROPERTY, expect=Expect.REFUTED, kind=ErratumKind.OVERCLAIM,
           corrected_by="usercheck.squares_nonnegative")
    @given(x=st.floats(-1e6, 1e6))
    def squares_below_x(x):
        assert x * x <= x
''')


@pytest.fixture
def user_module(tmp_path, monkeypatch):
    pkg = tmp_path / "usermod_checks.py"
    pkg.write_text(USER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    yield "usermod_checks"
    for name in ("usermod_checks", "usermod_bad"):
        sys.modules.pop(name, None)
    for c in registered_claims():
        if c.id.startswith("usercheck."):
            unregister(c.id)


def test_verify_writes_both_reports_and_exits_zero(user_module, capsys):
    code = main(["verify", "usercheck.*", "--claims", user_module, "--report", "r.md",
                 "--json", "r.json"])
    out = capsys.readouterr()
    assert code == 0
    assert "2 claims run: 1 verified, 1 errata confirmed, 0 failed" in out.out
    assert "[2/2] usercheck.squares_nonnegative: VERIFIED" in out.err  # progress lines
    doc = json.loads(open("r.json").read())
    assert [r["id"] for r in doc["results"]] == ["usercheck.squares_below_x",
                                                 "usercheck.squares_nonnegative"]
    assert "## Errata in the notes" in open("r.md").read()


def test_verify_exits_non_zero_when_a_claim_fails(user_module, tmp_path, monkeypatch):
    (tmp_path / "usermod_bad.py").write_text(textwrap.dedent('''
        from mltheory import Method, claim
        @claim(id="usercheck.false", source="003 §9.1", statement="One equals two, surely.",
               method=Method.ENUMERATION)
        def false():
            assert 1 == 2, "1 != 2"
    '''))
    assert main(["verify", "usercheck.false", "--claims", "usermod_bad"]) == 1


def test_verify_with_an_empty_selection_is_a_usage_error(user_module, capsys):
    assert main(["verify", "nothing.matches", "--claims", user_module]) == 2
    assert "no claims match" in capsys.readouterr().err


def test_list_and_show(user_module, capsys):
    assert main(["list", "usercheck.*", "--claims", user_module]) == 0
    out = capsys.readouterr().out
    assert "usercheck.squares_below_x" in out and "[erratum]" in out and "2 claims" in out
    assert main(["show", "usercheck.squares_below_x", "--claims", user_module]) == 0
    assert "REFUTED" in capsys.readouterr().out
    assert main(["show", "usercheck.none", "--claims", user_module]) == 2


def test_the_pytest_plugin_makes_one_item_per_claim_with_metadata(pytester, tmp_path):
    pytester.makepyfile(usermod_plugin_checks=USER_MODULE)
    pytester.makepyfile(test_user="def test_claim(mltheory_claim):\n"
                                  "    mltheory_claim.check()\n")
    pytester.syspathinsert()
    result = pytester.runpytest_subprocess(
        "--mltheory-claims", "usermod_plugin_checks", "-k", "usercheck",
        "--junitxml", "junit.xml", "--mltheory-report", "rep.md", "--mltheory-json", "rep.json",
        "-p", "no:cacheprovider",
    )
    result.assert_outcomes(passed=2)
    xml = (pytester.path / "junit.xml").read_text()
    assert 'name="claim_id" value="usercheck.squares_below_x"' in xml
    assert 'name="verdict" value="ERRATUM_CONFIRMED"' in xml
    assert 'name="source" value="003 §9.2"' in xml
    doc = json.loads((pytester.path / "rep.json").read_text())
    assert doc["summary"]["run"] == 2
    result.stdout.fnmatch_lines(["*mltheory: 2 claims run: 1 verified, 1 errata confirmed*"])


def test_claims_modules_in_the_current_directory_are_found_and_missing_ones_reported(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "usermod_cwd.py").write_text(USER_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    try:
        assert main(["list", "usercheck.*", "--claims", "usermod_cwd"]) == 0
        assert "2 claims" in capsys.readouterr().out
        assert main(["list", "--claims", "no_such_module_here"]) == 2
        assert "claims module 'no_such_module_here': cannot import it" in capsys.readouterr().err
    finally:
        sys.modules.pop("usermod_cwd", None)
        for c in registered_claims():
            if c.id.startswith("usercheck."):
                unregister(c.id)
