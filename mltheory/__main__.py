import sys

from mltheory.cli import main

sys.exit(main())
