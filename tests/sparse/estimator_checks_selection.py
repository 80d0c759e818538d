"""Estimator-check settings of part selection of the sparse family (merged in
estimator_checks.py): subset search, Relief, Relief-F and LVW of 003 §10.1-§10.3."""

from algorithms.sparse import LVW, Relief, ReliefF, SubsetSelector

INSTANCES: dict = {
    "SubsetSelector": lambda: SubsetSelector(),
    "Relief": lambda: Relief(),
    "ReliefF": lambda: ReliefF(),
    # two folds and a short patience keep scikit-learn's ~50 checks fast
    "LVW": lambda: LVW(patience=3, cv=2, random_state=0),
}

#: Relief's statistic (10.3) is defined for two classes (one near-hit class, one
#: near-miss class); these checks fit it on three- or four-class y, which fit refuses
#: with a ValueError naming y and pointing to ReliefF (10.4), the multi-class form.
_RELIEF_BINARY = (
    "Relief (003 §10.2 (10.3)) is a two-class statistic; the check fits it on a "
    "multi-class y, which fit refuses with a ValueError (use ReliefF, (10.4))")
_RELIEF_MULTICLASS_CHECKS = (
    "check_fit_score_takes_y", "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
    "check_readonly_memmap_input", "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit", "check_dtype_object",
    "check_f_contiguous_array_estimator", "check_methods_sample_order_invariance",
    "check_methods_subset_invariance", "check_dict_unchanged", "check_fit2d_predict1d",
)
EXPECTED_FAILED_CHECKS: dict = {
    "Relief": dict.fromkeys(_RELIEF_MULTICLASS_CHECKS, _RELIEF_BINARY),
}
