"""Hypothesis profiles and simulation budgets.

``quick`` is the default (CI): derandomized, no deadline, no example database,
so the same code gives the same examples and the same report every time.
``thorough`` runs ten times as many examples and simulation trials.

Claims never hard-code ``max_examples``: the profile decides, and claims
tagged ``slow`` get a fifth of the profile's examples.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, settings

__all__ = ["PROFILES", "Profile", "get_profile", "hypothesis_settings", "register_profiles"]


@dataclass(frozen=True)
class Profile:
    name: str
    max_examples: int
    slow_max_examples: int
    scale: int  # multiplier for simulation sizes, passed to checks as ``scale``


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", max_examples=60, slow_max_examples=12, scale=1),
    "thorough": Profile("thorough", max_examples=600, slow_max_examples=120, scale=10),
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(
            f"profile must be one of {sorted(PROFILES)}, got {name!r}"
        ) from None


def hypothesis_settings(profile: str | Profile, *, slow: bool = False) -> settings:
    """The Hypothesis settings a claim runs under."""
    p = profile if isinstance(profile, Profile) else get_profile(profile)
    return settings(
        max_examples=p.slow_max_examples if slow else p.max_examples,
        derandomize=True,
        deadline=None,
        database=None,
        print_blob=True,
        report_multiple_bugs=False,
        # Generated datasets are built from many draws by design; a "too slow"
        # health check would otherwise fire on the larger numerical claims.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        # The explain phase adds line-coverage notes of little use in a report.
        phases=tuple(p for p in Phase if p is not Phase.explain),
    )


def register_profiles() -> None:
    """Register ``quick`` and ``thorough`` with Hypothesis (for plain @given tests)."""
    for name in PROFILES:
        settings.register_profile(f"mltheory-{name}", hypothesis_settings(name))
