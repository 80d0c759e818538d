"""Estimator-check settings of the other networks of 003 §3.5.2-§3.5.6 (part of
tests/neural/estimator_checks.py)."""

from algorithms.neural import CascadeCorrelationClassifier, CascadeCorrelationRegressor

INSTANCES: dict = {
    # Small growth budgets keep scikit-learn's ~50 checks fast.
    "CascadeCorrelationRegressor": lambda: CascadeCorrelationRegressor(
        max_hidden=3, candidate_max_iter=50, random_state=0),
    "CascadeCorrelationClassifier": lambda: CascadeCorrelationClassifier(
        max_hidden=3, candidate_max_iter=50, random_state=0),
    # The Elman network reads sequences (n_sequences, T, d) and predicts one output per
    # step: scikit-learn's checks feed 2-d tables (n_samples, n_features) with one target
    # per row, which is not the model's input. Its protocol (fit/predict/NotFittedError,
    # get_params/clone, bad input) is covered by tests/neural/test_other.py and the
    # api_cases fuzzing instead.
    "ElmanNetwork": lambda: [],
}
#: scikit-learn's checks that fit the RBM on continuous tables (normal or uniform
#: features): a Bernoulli RBM's visible units are binary, E(v, h) and P(v) are defined
#: on {0, 1}^d only, so fit refuses such X ("X must be binary") instead of silently
#: treating real numbers as states.
_RBM_NEEDS_BINARY_X = (
    "the Bernoulli RBM of 003 §3.5.6 is defined on binary visible states; the check fits "
    "it on continuous X, which fit refuses with a ValueError ('X must be binary')")
_RBM_CONTINUOUS_CHECKS = (
    "check_fit_score_takes_y", "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
    "check_readonly_memmap_input", "check_n_features_in_after_fitting",
    "check_positive_only_tag_during_fit", "check_estimators_dtypes", "check_dtype_object",
    "check_pipeline_consistency", "check_estimators_nan_inf", "check_estimators_pickle",
    "check_estimators_pickle(readonly_memmap=True)", "check_f_contiguous_array_estimator",
    "check_transformer_data_not_an_array", "check_transformer_general",
    "check_transformer_preserve_dtypes", "check_transformer_general(readonly_memmap=True)",
    "check_methods_sample_order_invariance", "check_methods_subset_invariance",
    "check_fit2d_1sample", "check_fit2d_1feature", "check_dict_unchanged",
    "check_fit_idempotent", "check_fit_check_is_fitted", "check_n_features_in",
    "check_fit2d_predict1d",
)
EXPECTED_FAILED_CHECKS: dict = {
    "RBM": dict.fromkeys(_RBM_CONTINUOUS_CHECKS, _RBM_NEEDS_BINARY_X),
}
