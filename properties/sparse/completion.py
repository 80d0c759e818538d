"""Matrix completion of 003 §10.6: the nuclear norm (10.23), its relation to the rank
(the convex envelope on the spectral unit ball; the notes print the Frobenius ball, an
erratum), and exact recovery by nuclear-norm minimisation (10.24) in simulation."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given

from algorithms.sparse import svt_completion
from mltheory import ErratumKind, Expect, Method, claim, evidence, stats
from properties.sparse.strategies_dictionary import (
    SEEDS,
    frobenius_ball_matrices,
    spectral_ball_matrices,
)
from properties.sparse.support_dictionary import (
    check_frobenius_envelope,
    check_nuclear_norm,
    check_rank_bound,
    recovery_count,
    recovery_successes,
)


@claim(
    id="mc.nuclear_norm_10_23",
    source="003 §10.6 (10.23)",
    statement="||X||_* is the sum of the singular values of X (checked against the square "
    "roots of the eigenvalues of X^T X and the dual value <X, U V^T>), and it is the convex "
    "envelope of rank(X) on the spectral unit ball: ||X||_* <= rank(X) whenever ||X||_2 <= "
    "1, with equality at partial isometries, and X is a convex combination of partial "
    "isometries whose ranks average exactly ||X||_* (so no convex minorant of the rank "
    "exceeds it).",
    method=Method.PROPERTY,
    tags=("sparse", "completion", "bound"),
)
@given(case=spectral_ball_matrices(), seed=SEEDS)
def nuclear_norm_10_23(case, seed):
    X, s = case
    check_nuclear_norm(X, seed)
    check_rank_bound(X, s)


@claim(
    id="mc.envelope_frobenius_as_written",
    source="003 §10.6 (10.23)",
    statement="(As printed) on the set {X : ||X||_F^2 <= 1} the convex envelope of rank(X) "
    "is the nuclear norm ||X||_*.",
    method=Method.PROPERTY,
    tags=("sparse", "completion", "erratum"),
    expect=Expect.REFUTED,
    kind=ErratumKind.SYMBOL,
    corrected_by="mc.nuclear_norm_10_23",
    explanation="The ball must be the spectral-norm ball ||X||_2 <= 1 (Fazel's theorem), not "
    "the Frobenius ball. On the smaller Frobenius ball the envelope is larger: ||X||_*^2 is "
    "convex and <= rank(X) ||X||_F^2 <= rank(X) there, yet exceeds ||X||_* whenever "
    "||X||_* > 1, e.g. X = I/sqrt(2) (2 x 2): ||X||_* = sqrt(2) < 2 = ||X||_*^2 = rank.",
)
@given(X=frobenius_ball_matrices())
@example(X=np.eye(2) / np.sqrt(2.0))
def envelope_frobenius_as_written(X):
    check_frobenius_envelope(X)


#: Sizes of the recovery experiment: m x m for m in RECOVERY_SIZES (cycled over the
#: trials: the statement is for every m), rank r, trials per profile unit. 12 solves of
#: 8 x 8 to 12 x 12 nuclear-norm SDPs take about 0.6-1.5 s; 12 trials are enough to refute
#: the claimed 0.9 if recovery fails (0/12 successes: upper bound 1 - 1e-6^(1/12) = 0.68).
#: m = 8 is near the edge: with ceil(8 ln^2 8) = 35 of 64 entries about 9 in 10 succeed.
RECOVERY_SIZES, RECOVERY_R, RECOVERY_TRIALS = (8, 10, 12), 1, 12
#: The claimed success probability: "perfect recovery" read as at least 0.9.
RECOVERY_CLAIMED = 0.9


@claim(
    id="mc.recovery_10_24",
    source="003 §10.6 (10.22)-(10.24)",
    statement="Nuclear-norm minimisation (10.24) recovers a rank-r matrix exactly from "
    "O(m r log^2 m) uniformly observed entries (under conditions): for incoherent m x m "
    "rank-1 matrices (+-1 factors, m = 8, 10, 12) and |Omega| = ceil(m r ln^2 m) entries "
    "(35, 54, 75), the probability of exact recovery (relative error <= 1e-3) is at least "
    "0.9; refuted only if the one-sided Clopper-Pearson upper bound at confidence 1 - 1e-6 "
    "falls below 0.9. The same holds with (10.24) solved by singular value thresholding at "
    "its defaults (threshold 5 sqrt(mn) rms(A_Omega), residual tolerance 1e-6), whose "
    "limit tends to the minimiser of (10.24) as the threshold grows.",
    method=Method.SIMULATION,
    tags=("sparse", "completion", "slow"),
)
def recovery_10_24(rng, scale):
    sizes = [RECOVERY_SIZES[t % len(RECOVERY_SIZES)] for t in range(RECOVERY_TRIALS * scale)]
    check_recovery(rng, len(sizes), sizes, RECOVERY_R)
    check_recovery(rng, len(sizes), sizes, RECOVERY_R, solve=svt_solve,
                   label="P(exact recovery by (10.24) solved by SVT)")
    if scale > 1:  # thorough: the success rate along |Omega| (evidence: the transition)
        counts = [19, 30, 40, 54, 70]
        rates = [recovery_successes(rng, 10, 10, RECOVERY_R, c) / 10 for c in counts]
        evidence.series("exact recovery rate vs |Omega| (10 x 10, rank 1)", counts, rates)


def svt_solve(A, mask):
    """(10.24) by singular value thresholding at its defaults (the completed matrix)."""
    return svt_completion(A, mask).X


def check_recovery(rng, trials: int, sizes, r: int, count=recovery_count,
                   claimed: float = RECOVERY_CLAIMED, solve=None,
                   label: str = "P(exact recovery by (10.24))") -> None:
    """Simulate ``trials`` problems (sizes cycled from ``sizes``, an int or a list; |Omega|
    = ``count(m, r)``); decide ``P(exact recovery) >= claimed`` by Clopper-Pearson."""
    sizes = [sizes] * trials if isinstance(sizes, int) else list(sizes)
    wins = 0
    for m in sizes:
        wins += recovery_successes(rng, 1, m, r, count(m, r), solve=solve)
    used = sorted({(m, count(m, r)) for m in sizes})
    evidence.record("observed entries |Omega| per size m", str(used),
                    description=f"degrees of freedom r(2m - r) for rank r = {r}")
    stats.check_probability_at_least(wins, len(sizes), claimed, label=label)
