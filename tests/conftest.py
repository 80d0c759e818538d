"""Test-suite configuration: the mltheory plugin (entry point) registers the Hypothesis
profiles and loads the one chosen by --mltheory-profile (quick by default)."""

pytest_plugins = ["pytester"]
