"""REFERENCE claim of 003 §14.3.3: value iteration against a linear programme on the
gymnasium toy-text environments."""

from __future__ import annotations

from mltheory import Method, claim, evidence
from properties.reinforcement import planning_support as sup


@claim(
    id="mdp.value_iteration_reference_gym",
    source="003 §14.3.3 (14.13)",
    statement="On gymnasium's FrozenLake-v1 (4x4 and 8x8, slippery), CliffWalking-v1 and "
    "Taxi-v4 (γ = 0.99), value iteration's V equals the optimal values of the linear "
    "programme min Σ_x V(x) s.t. V(x) ≥ r(x,a) + γ Σ_x' P V(x') (HiGHS), and its greedy "
    "policy's exact value (a sparse linear solve) equals them too.",
    method=Method.REFERENCE,
    tags=("reinforcement", "mdp", "planning", "value-iteration", "gymnasium"),
)
def value_iteration_reference_gym():
    for name, kwargs in sup.GYM_ENVIRONMENTS:
        sup.check_gym_reference(name, kwargs, 0.99)
    evidence.add_examples(len(sup.GYM_ENVIRONMENTS))
