"""The claim model: metadata validation, the registry and selection."""

import pytest

from mltheory import ErratumKind, Expect, Method, claim
from mltheory.claims import get_claim, registered_claims, unregister, validate_registry
from mltheory.runner import select


@pytest.fixture
def scratch_ids():
    made = []
    yield made
    for cid in made:
        unregister(cid)


def _declare(cid, scratch_ids, **kw):
    scratch_ids.append(cid)
    meta = dict(id=cid, source="001 §二.3", statement="a statement long enough",
                method=Method.PROPERTY)
    meta.update(kw)
    return claim(**meta)(lambda: None)


def test_a_claim_is_registered_with_its_metadata(scratch_ids):
    _declare("scratch.registered", scratch_ids, tags=("a", "b"))
    c = get_claim("scratch.registered")
    assert c.source == "001 §二.3" and c.tags == ("a", "b") and c.expect is Expect.HOLDS


def test_a_duplicate_id_from_another_function_is_rejected(scratch_ids):
    _declare("scratch.dup", scratch_ids)
    with pytest.raises(ValueError, match="duplicate claim id"):
        claim(id="scratch.dup", source="001 §二", statement="another statement here",
              method=Method.PROPERTY)(lambda: 1)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("id", "NoTopic", "must look like"),
        ("id", "bad id.x", "must look like"),
        ("source", "", "must cite a note"),
        ("source", "003", "needs a section"),
        ("source", "003 §4.2; (4.9)", "name a work in words"),
        ("source", "001 §2;", "name a work in words"),
        ("statement", "short", "restate the claim"),
        ("tags", ("Bad Tag",), "lowercase"),
    ],
)
def test_invalid_metadata_is_rejected_naming_the_field(field, value, message):
    meta = dict(id="scratch.bad", source="001 §二", statement="a statement long enough",
                method=Method.PROPERTY)
    meta[field] = value
    with pytest.raises(ValueError, match=message):
        claim(**meta)


@pytest.mark.parametrize(
    "source", ["Mohri et al. 2018, Thm 3.3", "Zhou §4", "003 §4.2 (4.9); Vapnik 1998, ch. 5"]
)
def test_a_claim_may_cite_any_work_besides_the_notes(scratch_ids, source):
    _declare("scratch.any_source", scratch_ids, source=source)
    assert get_claim("scratch.any_source").source == source


def test_an_expected_refutation_needs_a_correction():
    with pytest.raises(ValueError, match="corrected_by"):
        claim(id="scratch.e", source="001 §二", statement="a statement long enough",
              method=Method.PROPERTY, expect=Expect.REFUTED)
    with pytest.raises(ValueError, match="only goes with"):
        claim(id="scratch.e", source="001 §二", statement="a statement long enough",
              method=Method.PROPERTY, corrected_by="scratch.x")
    with pytest.raises(ValueError, match="needs kind="):  # errata say what kind of mistake
        claim(id="scratch.e", source="001 §二", statement="a statement long enough",
              method=Method.PROPERTY, expect=Expect.REFUTED, corrected_by="scratch.x")
    with pytest.raises(TypeError, match="Method"):
        claim(id="scratch.e", source="001 §二", statement="a statement long enough",
              method="PROPERTY")


def test_a_dangling_correction_is_reported(scratch_ids):
    _declare("scratch.erratum", scratch_ids, expect=Expect.REFUTED,
             corrected_by="scratch.missing", kind=ErratumKind.SYMBOL)
    with pytest.raises(ValueError, match="scratch.missing"):
        validate_registry([get_claim("scratch.erratum")])


def test_selection_by_glob_tag_source_and_method(scratch_ids):
    _declare("scratch.alpha", scratch_ids, tags=("x",), source="003 §4.2 (4.9)")
    _declare("scratch.beta", scratch_ids, tags=("y",), source="003 §41",
             method=Method.SIMULATION)
    _declare("other.gamma", scratch_ids, source="001 §二")
    claims = [c for c in registered_claims() if c.id in scratch_ids]
    ids = lambda cs: sorted(c.id for c in cs)  # noqa: E731
    assert ids(select(claims, ["scratch.*"])) == ["scratch.alpha", "scratch.beta"]
    assert ids(select(claims, tags=["y"])) == ["scratch.beta"]
    assert ids(select(claims, sources=["003 §4"])) == ["scratch.alpha"]
    assert ids(select(claims, sources=["003"])) == ["scratch.alpha", "scratch.beta"]
    assert ids(select(claims, methods=["simulation"])) == ["scratch.beta"]
    assert ids(select(claims, ["scratch.*"], tags=["x", "y"], sources=["003 §41"])) == [
        "scratch.beta"
    ]
