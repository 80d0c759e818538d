"""Hyperparameter strategies shared by the perceptron claims."""

from hypothesis import strategies as st

etas = st.floats(1e-3, 1.0)
#: Positive reals spread evenly over twelve orders of magnitude (10^-6 .. 10^6).
log_uniform = st.floats(-6, 6).map(lambda e: 10.0**e)
orders = st.sampled_from(["cyclic", "random"])
seeds = st.integers(0, 2**16)
