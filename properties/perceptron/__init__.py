"""Claims of the perceptron family.

Notation shared by its modules: x_hat = (x, 1) and w_hat = (w, b) absorb the bias
(001 §二.2); a "run" is primal PLA from w_hat_0 = 0 with learning rate eta, and its
history w_hat_0, ..., w_hat_k is read from the estimator's ``weight_history_``
(:func:`properties.perceptron.support.pla_run`).
"""
