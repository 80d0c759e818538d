"""Settings of the bayes family for tests/test_estimator_checks.py."""

from algorithms.bayes import NaiveBayesClassifier, SPODEClassifier

# Naive Bayes also runs with categorical attributes; SPODE with seeded folds (its fixed
# super-parent mode is checked for weight equivalence in tests/bayes/test_algorithms.py).
INSTANCES = {
    "NaiveBayesClassifier": lambda: [
        NaiveBayesClassifier(),
        NaiveBayesClassifier(categorical_features="all"),
    ],
    "SPODEClassifier": lambda: SPODEClassifier(random_state=0),
}

EXPECTED_FAILED_CHECKS = {
    "SPODEClassifier": {
        "check_sample_weight_equivalence_on_dense_data": (
            "with super_parent=None the super-parent is chosen by k-fold cross-validation, "
            "whose folds are drawn over the list of samples: a sample of weight 2 sits in "
            "one fold, its two copies may sit in two, so the choice (not the tables) can "
            "differ; with a fixed super-parent the weighted and repeated fits agree"
        ),
    },
}
