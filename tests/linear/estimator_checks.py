"""Settings of the linear family for tests/test_estimator_checks.py."""

from algorithms.linear import (
    ECOCClassifier,
    LinearDiscriminantAnalysis,
    LogisticRegression,
    OneVsOneClassifier,
    OneVsRestClassifier,
    ThresholdRescalingClassifier,
)


def _binary_base() -> LogisticRegression:
    """The binary classifier the wrappers are meant for: decision_function and
    predict_proba (lam = 1 is scikit-learn's default C = 1)."""
    return LogisticRegression(lam=1.0)


# The wrappers need a base estimator: LDA (multi-class capable, decision_function only)
# and the library's binary logistic regression. Threshold rescaling reads
# P(positive | x), so only the probabilistic base fits it.
INSTANCES = {
    "OneVsRestClassifier": lambda: [
        OneVsRestClassifier(estimator=LinearDiscriminantAnalysis()),
        OneVsRestClassifier(estimator=_binary_base()),
    ],
    "OneVsOneClassifier": lambda: [
        OneVsOneClassifier(estimator=LinearDiscriminantAnalysis()),
        OneVsOneClassifier(estimator=_binary_base()),
    ],
    "ECOCClassifier": lambda: [
        ECOCClassifier(estimator=LinearDiscriminantAnalysis(), random_state=0),
        ECOCClassifier(estimator=_binary_base(), n_columns=5, random_state=0),
    ],
    "ThresholdRescalingClassifier": lambda: ThresholdRescalingClassifier(_binary_base()),
}

# SimpleLinearRegression is the univariate least squares of 003 §1.2: the closed form
# (1.6) has one input variable, so it refuses X with several columns (LinearRegression
# fits those). The checks below feed it several features.
_UNIVARIATE = (
    "univariate by definition: 003 §1.2 (1.6) has one input variable, so X with more "
    "than one feature is refused (use LinearRegression)"
)
_MULTI_FEATURE_CHECKS = (
    "check_fit_score_takes_y",
    "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters",
    "check_estimators_fit_returns_self",
    "check_readonly_memmap_input",
    "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit",
    "check_estimators_dtypes",
    "check_dtype_object",
    "check_pipeline_consistency",
    "check_estimators_nan_inf",
    "check_estimators_pickle",
    "check_estimators_pickle(readonly_memmap=True)",
    "check_f_contiguous_array_estimator",
    "check_regressors_train",
    "check_regressors_train(readonly_memmap=True)",
    "check_regressors_train(readonly_memmap=True,X_dtype=float32)",
    "check_regressor_data_not_an_array",
    "check_regressors_no_decision_function",
    "check_supervised_y_2d",
    "check_regressors_int",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_dict_unchanged",
    "check_fit_idempotent",
    "check_fit_check_is_fitted",
    "check_n_features_in",
    "check_fit2d_predict1d",
)

EXPECTED_FAILED_CHECKS: dict[str, dict[str, str]] = {
    "SimpleLinearRegression": dict.fromkeys(_MULTI_FEATURE_CHECKS, _UNIVARIATE),
}
