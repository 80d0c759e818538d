"""scikit-learn estimator-check settings of the sparse family (see
``tests/test_estimator_checks.py``), merged from its parts."""

from __future__ import annotations

from tests.sparse.estimator_checks_dictionary import EXPECTED_FAILED_CHECKS as _DICTIONARY_X
from tests.sparse.estimator_checks_dictionary import INSTANCES as _DICTIONARY_I
from tests.sparse.estimator_checks_pgd_cs import EXPECTED_FAILED_CHECKS as _PGD_CS_X
from tests.sparse.estimator_checks_pgd_cs import INSTANCES as _PGD_CS_I
from tests.sparse.estimator_checks_selection import EXPECTED_FAILED_CHECKS as _SELECTION_X
from tests.sparse.estimator_checks_selection import INSTANCES as _SELECTION_I

INSTANCES = {**_SELECTION_I, **_PGD_CS_I, **_DICTIONARY_I}
EXPECTED_FAILED_CHECKS = {**_SELECTION_X, **_PGD_CS_X, **_DICTIONARY_X}
