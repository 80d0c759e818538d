"""Claims of the decision-tree family (003 Chapter 2).

Notation: D a set of samples with class proportions p_k, a an attribute with values
a^1..a^V splitting D into D^v; Ent (2.1), Gain (2.2), IV and Gain_ratio (2.4), Gini
(2.5), Gini_index (2.6). Counts are weighted counts; logarithms base 2.
"""
