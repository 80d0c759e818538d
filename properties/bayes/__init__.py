"""Claims of 003 Chapter 5 (Bayes classifiers, Bayesian networks, EM).

Notation: classes ``c_1..c_N``, attributes ``x_1..x_d``; ``lambda_ij`` is the loss of
deciding ``c_i`` when the truth is ``c_j``; a Bayesian network ``B = <G, Theta>`` has
parent sets ``pi_i`` and CPTs ``theta_{x_i | pi_i}``; EM's iterates are ``Theta^t``.
"""
