"""Every exported name of every family, fuzzed with bad input (see ``tests/api_fuzz.py``).

A family joins by writing ``tests/<family>/api_cases.py`` with ``CASES: dict[str, Case]``
covering every name of ``algorithms.<family>.__all__``. One test item per (family,
name, variant), e.g. ``linear-ridge_solve-X-nan``::

    python -m pytest tests/test_public_api.py -q -p no:cacheprovider -n 0 -k linear
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api_fuzz import (
    Case,
    case_seed,
    documented_defaults,
    random_variants,
    run_variant,
    variants,
)

ALGORITHMS = Path(__file__).resolve().parent.parent / "algorithms"

#: Random bad variants per name (a bad entry anywhere, a scale 1e±100..1e±307), on top
#: of the fixed ones: enough to move the bad entry off the first row and column.
RANDOM_EXAMPLES = 6

FAMILIES = sorted(
    p.name
    for p in ALGORITHMS.iterdir()
    if p.is_dir() and not p.name.startswith("_") and (p / "__init__.py").exists()
)


def _exports(family: str) -> dict[str, object]:
    module = importlib.import_module(f"algorithms.{family}")
    return {name: getattr(module, name) for name in module.__all__}


def _cases(family: str) -> dict[str, Case] | None:
    """The family's CASES, or None when it has no ``api_cases.py`` yet."""
    name = f"tests.{family}.api_cases"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    return dict(module.CASES)


def _params() -> list:
    params = []
    for family in FAMILIES:
        cases = _cases(family)
        if cases is None:
            continue
        exports = _exports(family)
        for name, obj in exports.items():
            case = cases.get(name)
            if case is None or case.skip:
                continue
            try:
                found = variants(obj, case, case_seed(family, name))
            except Exception as exc:  # noqa: BLE001 - shown by a failing item
                params.append(
                    pytest.param(family, name, exc, id=f"{family}-{name}-case-broken")
                )
                continue
            params += [
                pytest.param(family, name, v, id=f"{family}-{name}-{v.id}") for v in found
            ]
    return params


@pytest.mark.parametrize("family", FAMILIES)
def test_every_exported_name_has_a_case(family: str) -> None:
    cases = _cases(family)
    # every family's public API is fuzzed: a new family brings its case table with it
    assert cases is not None, (f"{family}: no tests/{family}/api_cases.py "
                               "(CONTRIBUTING.md, 'Bad-input fuzzing of the public API')")
    exports = _exports(family)
    missing = sorted(set(exports) - set(cases))
    stale = sorted(set(cases) - set(exports))
    assert not missing, f"{family}: no Case for {missing} (tests/{family}/api_cases.py)"
    assert not stale, f"{family}: Cases for names not in __all__: {stale}"
    for name, case in cases.items():
        assert isinstance(case, Case), f"{family}.{name}: not a Case but {type(case)}"


@pytest.mark.parametrize(("family", "name", "variant"), _params())
def test_public_api_variant(family: str, name: str, variant: object) -> None:
    if isinstance(variant, Exception):
        raise AssertionError(
            f"{family}.{name}: the Case could not be expanded: "
            f"{type(variant).__name__}: {variant}"
        ) from variant
    case = _cases(family)[name]  # type: ignore[index]
    obj = _exports(family)[name]
    failure = run_variant(obj, case, variant, case_seed(family, name))
    assert failure is None, f"{family}.{name} [{variant.id}]: {failure}"


def _random_params() -> list:
    params = []
    for family in FAMILIES:
        cases = _cases(family)
        if cases is None:
            continue
        for name in _exports(family):
            case = cases.get(name)
            if case is not None and not case.skip:
                params.append(pytest.param(family, name, id=f"{family}-{name}-random"))
    return params


@pytest.mark.parametrize(("family", "name"), _random_params())
@settings(
    max_examples=RANDOM_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_public_api_random_variant(family: str, name: str, data: st.DataObject) -> None:
    case = _cases(family)[name]  # type: ignore[index]
    obj = _exports(family)[name]
    seed = case_seed(family, name)
    strategy = random_variants(obj, case, seed)
    if strategy is None:
        return  # no float array argument
    variant = data.draw(strategy, label="variant")
    failure = run_variant(obj, case, variant, seed)
    assert failure is None, f"{family}.{name} [{variant.id}]: {failure}"


def _documented_callables():
    for family in FAMILIES:
        for name, obj in _exports(family).items():
            if inspect.isclass(obj) or inspect.isfunction(obj):
                yield f"{family}.{name}", obj


@pytest.mark.parametrize(("name", "obj"), list(_documented_callables()),
                         ids=[name for name, _ in _documented_callables()])
def test_every_documented_default_is_the_signature_default(name, obj):
    """Each ``default=`` of a public docstring is the signature's default, value and type
    (a changed default is library contract: the tests' job, CONTRIBUTING.md)."""
    signature = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    for param, value in documented_defaults(obj).items():
        assert param in signature.parameters, f"{name}: {param} is documented, not a parameter"
        actual = signature.parameters[param].default
        assert actual == value and type(actual) is type(value), (
            f"{name}: {param} defaults to {actual!r}, documented as {value!r}")


def test_documented_defaults_are_found_in_every_family():
    # the parser must not silently find nothing: 355 defaults were documented on 2026-11-27
    found = {family: sum(len(documented_defaults(obj)) for name, obj in _documented_callables()
                         if name.startswith(f"{family}."))
             for family in FAMILIES}
    assert sum(found.values()) >= 350, found
    assert documented_defaults(importlib.import_module("algorithms.rules")
                               .SequentialCoveringClassifier)["validation_fraction"] == 1 / 3
