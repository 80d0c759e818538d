"""pytest plugin: claims as test items, claim metadata in JUnit XML, reports from pytest.

Registered through the ``pytest11`` entry point, so it is active wherever
mltheory is installed; it does nothing until a test asks for the
``mltheory_claim`` fixture. A test module containing::

    def test_claim(mltheory_claim):
        mltheory_claim.check()

gets one test item per registered claim (ids are the claim ids; claims tagged
``slow`` carry the ``slow`` marker). An item passes when its claim is VERIFIED
or ERRATUM_CONFIRMED, is skipped when the check skips, and fails otherwise
with the verdict, the counterexample and the traceback. Each item records
``claim_id``, ``source``, ``method``, ``expect`` and ``verdict`` in
``user_properties`` (hence in JUnit XML), and ``--mltheory-report PATH`` writes
the same Markdown/JSON report as ``mltheory verify`` (also under pytest-xdist).

Options: ``--mltheory-profile quick|thorough``, ``--mltheory-seed N``,
``--mltheory-claims MODULE`` (extra claim modules), ``--mltheory-report PATH``,
``--mltheory-json PATH``, ``--mltheory-html PATH``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mltheory.profiles import PROFILES

_RESULT_KEY = "mltheory_result"
_results_key = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mltheory", "mltheory claim verification")
    group.addoption("--mltheory-profile", choices=sorted(PROFILES),
                    default=os.environ.get("MLTHEORY_PROFILE", "quick"),
                    help="Hypothesis/simulation budget for claims and @given tests "
                         "(default: $MLTHEORY_PROFILE or quick)")
    group.addoption("--mltheory-seed", type=int, default=None,
                    help="global seed for claim random generators")
    group.addoption("--mltheory-claims", action="append", default=[], metavar="MODULE",
                    help="extra module/package to import claims from (repeatable)")
    group.addoption("--mltheory-report", default=None, metavar="PATH",
                    help="write the Markdown verification report of the claims run")
    group.addoption("--mltheory-json", default=None, metavar="PATH",
                    help="write the JSON verification report of the claims run")
    group.addoption("--mltheory-html", default=None, metavar="PATH",
                    help="write the HTML verification report (with plots) of the claims run")


def pytest_configure(config: pytest.Config) -> None:
    from hypothesis import settings

    from mltheory.profiles import register_profiles

    register_profiles()
    # Plain @given tests follow the same profile unless Hypothesis' own option is used.
    if not getattr(config.option, "hypothesis_profile", None):
        settings.load_profile(f"mltheory-{config.getoption('--mltheory-profile')}")
    config.stash[_results_key] = []
    _CONFIG["config"] = config


def _seed(config: pytest.Config) -> int:
    from mltheory.rng import DEFAULT_SEED

    seed = config.getoption("--mltheory-seed")
    return DEFAULT_SEED if seed is None else seed


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "mltheory_claim" not in metafunc.fixturenames:
        return
    from mltheory.runner import discover

    claims = discover(metafunc.config.getoption("--mltheory-claims"))
    params = [
        pytest.param(c.id, id=c.id, marks=[pytest.mark.slow] if c.slow else [])
        for c in claims
    ]
    metafunc.parametrize("mltheory_claim", params, indirect=True)


class ClaimCheck:
    """What the ``mltheory_claim`` fixture provides: one claim, ready to check."""

    def __init__(self, claim_id: str, node: pytest.Item, profile: str, seed: int) -> None:
        from mltheory.claims import get_claim

        self.claim = get_claim(claim_id)
        self.node = node
        self.profile = profile
        self.seed = seed
        c = self.claim
        node.user_properties.extend([
            ("claim_id", c.id),
            ("source", c.source),
            ("method", c.method.value),
            ("expect", c.expect.value),
        ])

    def check(self) -> Any:
        from mltheory.results import Verdict
        from mltheory.runner import run_claim

        r = run_claim(self.claim, profile=self.profile, seed=self.seed)
        self.node.user_properties.append(("verdict", r.verdict.value))
        self.node.user_properties.append((_RESULT_KEY, json.dumps(r.as_dict())))
        if r.verdict is Verdict.SKIPPED:
            pytest.skip(r.reason)
        if not r.passed:
            parts = [f"{r.verdict.value}: {self.claim.id} ({self.claim.source})",
                     self.claim.statement, r.reason]
            if r.counterexample:
                parts += ["", r.counterexample]
            if r.error:
                parts += ["", r.error]
            pytest.fail("\n".join(p for p in parts if p is not None), pytrace=False)
        return r


@pytest.fixture
def mltheory_claim(request: pytest.FixtureRequest) -> ClaimCheck:
    """The claim this test item checks (see the module docstring)."""
    return ClaimCheck(
        request.param,
        request.node,
        request.config.getoption("--mltheory-profile"),
        _seed(request.config),
    )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for key, value in getattr(report, "user_properties", ()):
        if key == _RESULT_KEY:
            config = _CONFIG.get("config")
            if config is not None:
                config.stash[_results_key].append(json.loads(value))


# pytest_runtest_logreport receives no config; the (single) active one is kept here.
_CONFIG: dict[str, pytest.Config] = {}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    md, js = config.getoption("--mltheory-report"), config.getoption("--mltheory-json")
    html = config.getoption("--mltheory-html")
    if not (md or js or html) or hasattr(config, "workerinput"):  # only the controller writes
        return
    from mltheory import __version__
    from mltheory.report import build_document, write_reports

    results = config.stash[_results_key]
    doc = build_document(results, profile=config.getoption("--mltheory-profile"),
                         seed=_seed(config), version=__version__)
    write_reports(doc, markdown=md, json_path=js, html=html)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    results = config.stash.get(_results_key, [])
    if not results or hasattr(config, "workerinput"):
        return
    from mltheory.report import build_document, summary_line

    doc = build_document(results, profile=config.getoption("--mltheory-profile"),
                         seed=_seed(config), version="", timings=False)
    terminalreporter.write_sep("-", "mltheory: " + summary_line(doc["summary"]))
    for p in (config.getoption("--mltheory-report"), config.getoption("--mltheory-json"),
              config.getoption("--mltheory-html")):
        if p:
            terminalreporter.write_line(f"mltheory report written to {Path(p)}")
