"""Symbolic derivation behind 003 §12.5.2: the evidence decomposition
ln p(x) = ELBO(q) + KL(q || p(z | x)) for any q over a finite hidden variable, which
makes the ELBO a lower bound (KL >= 0) and turns maximising it into minimising the KL."""

from __future__ import annotations

import sympy as sp

from mltheory import Method, claim
from mltheory.symbolic import Derivation


@claim(
    id="vi.elbo_decomposition_symbolic",
    source="003 §12.5.2 (12.21)-(12.23)",
    statement="For hidden z with K values, any q with sum_z q(z) = 1 and joint p(x, z) > 0: "
    "ln p(x) = sum_z q(z) ln(p(x, z)/q(z)) + sum_z q(z) ln(q(z)/p(z | x)) with "
    "p(z | x) = p(x, z)/p(x) (the ELBO plus KL(q || posterior)), for K = 2..5.",
    method=Method.SYMBOLIC,
    tags=("graphical", "variational", "symbolic"),
)
def elbo_decomposition_symbolic():
    for K in range(2, 6):
        q = sp.symbols(f"q1:{K + 1}", positive=True)
        a = sp.symbols(f"a1:{K + 1}", positive=True)  # a_z = p(x, z)
        evidence_ = sum(a)
        q_last = 1 - sum(q[:-1])  # q sums to 1
        qs = [*q[:-1], q_last]
        elbo = sum(qz * (sp.log(az) - sp.log(qz)) for qz, az in zip(qs, a, strict=True))
        kl = sum(qz * (sp.log(qz) - (sp.log(az) - sp.log(evidence_)))
                 for qz, az in zip(qs, a, strict=True))
        deriv = Derivation(f"ln p(x) = ELBO + KL, K = {K}")
        deriv.equal("ELBO + KL", sp.expand_log(elbo + kl, force=True),
                    sp.expand_log(sp.log(evidence_) * sum(qs), force=True))
        deriv.equal("sum_z q(z) ln p(x)", sp.log(evidence_) * sum(qs), sp.log(evidence_))
        deriv.verify()
