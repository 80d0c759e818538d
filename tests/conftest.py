"""Test-suite configuration: the mltheory plugin (entry point) registers the Hypothesis
profiles and loads the one chosen by --mltheory-profile (quick by default)."""

pytest_plugins = ["pytester"]

# One BLAS thread per test process. `pytest -n auto` already runs one worker per core;
# OpenBLAS's own threads on top oversubscribe the cores, and on the small matrices of the
# claims its thread start-up and spinning cost far more than the arithmetic (a 300 x 300
# eigh measured 1.7 s with two threads per worker on a busy 2-core machine, 0.01 s with
# one). The limit holds for the whole session (the object is kept alive here).
from threadpoolctl import threadpool_limits  # noqa: E402

_ONE_BLAS_THREAD = threadpool_limits(limits=1, user_api="blas")
