"""Estimator-check settings of part exact of the graphical family (merged in
estimator_checks.py).

The exact part exports no scikit-learn estimator: HMM evaluation/sampling/decoding, the
MRF and CRF tables, variable elimination and belief propagation are functions of given
parameters (the notes fit none of them; Baum-Welch and CRF training are outside 003
§12.1-§12.4), so there is nothing for ``check_estimator`` to run here.
"""

INSTANCES: dict = {}
EXPECTED_FAILED_CHECKS: dict = {}
