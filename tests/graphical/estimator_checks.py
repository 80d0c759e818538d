"""scikit-learn estimator-check settings of the graphical family (see
``tests/test_estimator_checks.py``), merged from its parts."""

from __future__ import annotations

from tests.graphical.estimator_checks_approx import EXPECTED_FAILED_CHECKS as _APPROX_X
from tests.graphical.estimator_checks_approx import INSTANCES as _APPROX_I
from tests.graphical.estimator_checks_exact import EXPECTED_FAILED_CHECKS as _EXACT_X
from tests.graphical.estimator_checks_exact import INSTANCES as _EXACT_I

INSTANCES = {**_EXACT_I, **_APPROX_I}
EXPECTED_FAILED_CHECKS = {**_EXACT_X, **_APPROX_X}
