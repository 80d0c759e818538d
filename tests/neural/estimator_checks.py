"""scikit-learn estimator-check settings of the neural family (see
``tests/test_estimator_checks.py``), merged from its two parts."""

from __future__ import annotations

from tests.neural.estimator_checks_other import EXPECTED_FAILED_CHECKS as _OTHER_X
from tests.neural.estimator_checks_other import INSTANCES as _OTHER_I
from tests.neural.estimator_checks_supervised import EXPECTED_FAILED_CHECKS as _SUP_X
from tests.neural.estimator_checks_supervised import INSTANCES as _SUP_I

INSTANCES = {**_SUP_I, **_OTHER_I}
EXPECTED_FAILED_CHECKS = {**_SUP_X, **_OTHER_X}
