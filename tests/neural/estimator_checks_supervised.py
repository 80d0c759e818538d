"""Estimator-check settings of the supervised networks (part of
tests/neural/estimator_checks.py).

The BP networks are checked with mini-batch updates and a symmetric initial range: the
checks fit dozens of times, and the per-sample Python loop of standard BP would make them
slow without testing anything the mini-batch path does not (both run the same formulas).
"""

from algorithms.neural import BPClassifier, BPRegressor, RBFNetwork, ThresholdPerceptron

_BP = {"hidden_units": 8, "algorithm": "minibatch", "batch_size": 16, "learning_rate": 1.0,
       "max_iter": 300, "init_range": (-0.5, 0.5), "random_state": 0}

INSTANCES: dict = {
    "ThresholdPerceptron": lambda: ThresholdPerceptron(max_iter=50, random_state=0),
    "BPClassifier": lambda: BPClassifier(**_BP),
    "BPRegressor": lambda: BPRegressor(**_BP),
    # as many centres as samples in the smallest check data (the regression check fits a
    # linear target in 10 dimensions, which (3.14) without a bias needs many units for)
    "RBFNetwork": lambda: RBFNetwork(n_centres=20, random_state=0),
}
EXPECTED_FAILED_CHECKS: dict = {}
