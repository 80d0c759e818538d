"""``python -m benchmarks [--quick] [--only GLOB ...]``: every bench module, one table.

The thread-pool environment is pinned to one thread before numpy or any bench module
loads (:func:`benchmarks._runner.pin_thread_environment`); see :mod:`benchmarks._runner`.
"""

import os
import sys

from benchmarks._runner import THREAD_VARIABLES

if __name__ == "__main__":
    for _name in THREAD_VARIABLES:
        os.environ[_name] = "1"
    from benchmarks._runner import main

    sys.exit(main())
