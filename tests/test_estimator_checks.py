"""scikit-learn's own estimator checks on every public estimator of every family.

Estimators are discovered from the ``__all__`` of each ``algorithms.<family>`` package,
so a new chapter joins this test without editing it. A family whose estimators cannot
be built with default arguments (meta-estimators need a base estimator), or whose
algorithm cannot pass a check for a mathematical reason, says so in
``tests/<family>/estimator_checks.py``:

- ``INSTANCES``: ``{class name: callable returning the instance(s) to check}``;
- ``EXPECTED_FAILED_CHECKS``: ``{class name: {check name: the reason}}``; an entry
  without a reason is refused.

Only the checks listed there may fail; scikit-learn marks them xfail and the reason
shows in the test report.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import warnings

import pytest
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

import algorithms


def _families() -> list[str]:
    return sorted(
        info.name for info in pkgutil.iter_modules(algorithms.__path__) if info.ispkg
    )


def _family_settings(family: str) -> tuple[dict, dict]:
    try:
        module = importlib.import_module(f"tests.{family}.estimator_checks")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"tests.{family}", f"tests.{family}.estimator_checks"):
            raise
        return {}, {}
    return getattr(module, "INSTANCES", {}), getattr(module, "EXPECTED_FAILED_CHECKS", {})


def public_estimators() -> list[BaseEstimator]:
    """One instance (or several) of every concrete estimator class in a family's __all__."""
    found = []
    for family in _families():
        package = importlib.import_module(f"algorithms.{family}")
        instances, _ = _family_settings(family)
        for name in getattr(package, "__all__", ()):
            obj = getattr(package, name)
            if not (inspect.isclass(obj) and issubclass(obj, BaseEstimator)):
                continue
            if inspect.isabstract(obj) or name.startswith("_"):
                continue
            made = instances[name]() if name in instances else obj()
            found.extend(made if isinstance(made, list | tuple) else [made])
    return found


def expected_failed_checks(estimator: BaseEstimator) -> dict[str, str]:
    """The reasoned allowed failures of ``estimator``'s class, from its family's file."""
    family = type(estimator).__module__.split(".")[1]
    _, expected = _family_settings(family)
    reasons = expected.get(type(estimator).__name__, {})
    for check, reason in reasons.items():
        if not (isinstance(reason, str) and reason.strip()):
            raise AssertionError(f"{type(estimator).__name__}: {check} is allowed without a reason")
    return reasons


ESTIMATORS = public_estimators()


def test_every_family_contributes_its_estimators():
    # Guards the discovery itself: a family whose estimators vanish from this test
    # (a broken __all__, an import error swallowed) would otherwise pass silently.
    names = {type(e).__name__ for e in ESTIMATORS}
    for expected in ("Perceptron", "LinearRegression", "SMOClassifier", "KernelRidge"):
        assert expected in names


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_estimator_checks(estimator, check):
    # Non-convergence on the checks' tiny data sets only emits ConvergenceWarning.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


@pytest.mark.parametrize("family", _families())
def test_family_settings_name_real_estimators(family):
    package = importlib.import_module(f"algorithms.{family}")
    instances, expected = _family_settings(family)
    for name in [*instances, *expected]:
        assert name in getattr(package, "__all__", ()), f"{family}: unknown estimator {name}"
