"""scikit-learn estimator-check settings of the dimred family (see
``tests/test_estimator_checks.py``), merged from its parts."""

from __future__ import annotations

from tests.dimred.estimator_checks_linear import EXPECTED_FAILED_CHECKS as _LINEAR_X
from tests.dimred.estimator_checks_linear import INSTANCES as _LINEAR_I
from tests.dimred.estimator_checks_manifold import EXPECTED_FAILED_CHECKS as _MANIFOLD_X
from tests.dimred.estimator_checks_manifold import INSTANCES as _MANIFOLD_I

INSTANCES = {**_LINEAR_I, **_MANIFOLD_I}
EXPECTED_FAILED_CHECKS = {**_LINEAR_X, **_MANIFOLD_X}
