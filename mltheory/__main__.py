import sys

from mltheory.cli import main

if __name__ == "__main__":  # worker processes (spawn) import this module too
    sys.exit(main())
