"""mltheory: executable claims about classical machine-learning theory.

The framework package: the claim model and registry, the runner, verdicts,
reports, the CLI and the pytest plugin, shared Hypothesis strategies and the
numeric and statistical helpers. It imports neither ``algorithms`` nor
``properties``; claim modules are discovered by name when a run asks for them.

Declaring a claim::

    from hypothesis import given
    from mltheory import Method, claim, evidence
    from mltheory.strategies import separable_datasets

    @claim(id="perceptron.example", source="001 §二.3", method=Method.PROPERTY,
           statement="...")
    @given(data=separable_datasets())
    def example(data): ...
"""

from mltheory import evidence, numeric, stats
from mltheory.claims import (
    Claim,
    ErratumKind,
    Expect,
    Method,
    SkipClaim,
    claim,
    get_claim,
    registered_claims,
)
from mltheory.results import Result, Verdict
from mltheory.rng import DEFAULT_SEED, claim_rng

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_SEED",
    "Claim",
    "ErratumKind",
    "Expect",
    "Method",
    "Result",
    "SkipClaim",
    "Verdict",
    "__version__",
    "claim",
    "claim_rng",
    "evidence",
    "get_claim",
    "numeric",
    "registered_claims",
    "stats",
]
