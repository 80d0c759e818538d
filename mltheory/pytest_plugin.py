"""pytest plugin (registered through the ``pytest11`` entry point)."""

from __future__ import annotations


def pytest_configure(config):  # pragma: no cover - replaced by the full plugin
    from mltheory.profiles import register_profiles

    register_profiles()
