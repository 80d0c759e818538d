"""One test item per registered claim (via the mltheory pytest plugin).

An item passes when its claim is VERIFIED (or ERRATUM_CONFIRMED for a declared
erratum of the notes); see ``mltheory.pytest_plugin``.
"""


def test_claim(mltheory_claim):
    mltheory_claim.check()
