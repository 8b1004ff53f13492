"""Species classification (Glencoe 701 Subd. 1(R); WLD-01), the prohibition on wild pets
with its recorded exemptions (Subd. 31(B), 32(B), 32(C); WLD-03, WLD-05, WLD-06) and the
per-lot caps (Subd. 1(R)(3); WLD-02), through the registry's one registration service."""

from datetime import date

import pytest

from kernel.kept import RecordKept
from licensing.services import registry
from licensing.services.species import premises_caps
from ordinance.models import Event
from ordinance.profiles import ProfileError, _species_spec
from ordinance.refusals import Refused
from ordinance.species import FARM, PET, WILD, classify, species_table
from permits.models import WildExemption
from permits.services import register
from tests.licensing.factories import OwnerFactory

pytestmark = pytest.mark.django_db
ON = date(2026, 5, 4)


@pytest.fixture
def gl_owner(glencoe):
    return OwnerFactory(jurisdiction=glencoe, last_name="Zzgl Wolfe", address_line="9 Birch Ave")


def register_animal(owner, actor, **fields):
    return registry.animal_register(owner=owner, actor=actor, on=ON, name="Animal", **fields)


def record_vet_exemption(premises, actor, **extra):
    fields = dict(
        premises=premises,
        basis="veterinary",
        holder_name="Glencoe Veterinary Hospital",
        protective_devices_confirmed=True,
        confirmed_by_name="Officer Olson",
        evidence="Locked kennels with double doors seen on inspection.",
        starts_on=ON,
        actor=actor,
    )
    fields.update(extra)
    return register.exemption_record(**fields)


# --- The table and classify() ----------------------------------------------------------


def test_glencoe_has_the_ten_exception_classes_and_north_branch_none(glencoe, north_branch):
    table = species_table(glencoe)
    assert {s.exception_class for s in table.values() if s.category != WILD} == set(range(1, 11))
    assert table["wolf_hybrid"].category == WILD and table["ocelot_hybrid"].category == WILD
    assert species_table(north_branch) == {}
    assert classify(north_branch, kind="wolf_hybrid") is None


def test_classify_answers_pet_farm_or_wild_with_the_clause(glencoe):
    assert classify(glencoe, kind="dog").category == PET
    assert classify(glencoe, kind="dog").citation == "Glencoe 701 Subd. 1(R)(1)"
    assert classify(glencoe, kind="pigeon").category == FARM
    assert classify(glencoe, kind="wolf_hybrid").is_wild
    # Not in the table is no exception class: wild (every non-human species, Subd. 1(R)).
    assert classify(glencoe, kind="tiger").is_wild


def test_an_unvaccinated_cat_or_intact_ferret_is_flagged_never_made_wild(glencoe):
    cat = classify(glencoe, kind="cat", vaccinated=False)
    assert cat.category == PET and "Subd. 1(R)(2)" in cat.flag and "staff decide" in cat.flag
    ferret = classify(glencoe, kind="ferret", sterilized=False)
    assert ferret.category == PET and "Subd. 1(R)(10)" in ferret.flag
    assert classify(glencoe, kind="cat", vaccinated=True).flag == ""
    assert classify(glencoe, kind="ferret", sterilized=True).flag == ""
    assert classify(glencoe, kind="cat").flag == ""  # unknown: nothing to flag


def test_a_species_row_with_a_wrong_class_fails_loudly():
    row = {"label": "X", "category": "pet", "base": "other", "class": 0, "citation": "c"}
    with pytest.raises(ProfileError):
        _species_spec("glencoe", "x", {**row, "quote": "q"}, {}, 0)
    with pytest.raises(ProfileError):
        _species_spec("glencoe", "x", {**row, "class": 3, "quote": "q", "cap": "nope"}, {}, 0)


# --- Registration -------------------------------------------------------------------------


def test_registering_a_wolf_hybrid_as_a_pet_is_refused_with_subd_31(glencoe_clerk, gl_owner):
    with pytest.raises(Refused) as refused:
        register_animal(gl_owner, glencoe_clerk, species="dog", kind="wolf_hybrid")
    check = refused.value.checks[0]
    assert check.field == "kind" and check.citation == "Glencoe 701 Subd. 31(B)"
    assert "wild animal" in check.message and "Subd. 1(R)(1)" in check.message
    assert not gl_owner.animals.exists()


def test_a_dog_is_classified_as_a_domestic_dog_and_the_event_says_so(glencoe_clerk, gl_owner):
    dog = register_animal(gl_owner, glencoe_clerk, species="dog")
    assert dog.kind == "dog"
    event = Event.objects.get(action="licensing.animal.registered")
    assert event.data["class"] == PET and event.data["flag"] == ""


def test_an_intact_ferret_registers_and_the_flag_is_recorded(glencoe_clerk, gl_owner):
    ferret = register_animal(gl_owner, glencoe_clerk, species="ferret", sterilized=False)
    assert ferret.kind == "ferret"
    assert "Subd. 1(R)(10)" in Event.objects.get(action="licensing.animal.registered").data["flag"]


def test_an_other_pet_needs_its_kind_and_a_kind_of_another_species_is_refused(
    glencoe_clerk, gl_owner
):
    with pytest.raises(Refused) as refused:
        register_animal(gl_owner, glencoe_clerk, species="other")
    assert refused.value.checks[0].citation == "Glencoe 701 Subd. 1(R)"
    with pytest.raises(Refused):
        register_animal(gl_owner, glencoe_clerk, species="cat", kind="wolf_hybrid")
    assert register_animal(gl_owner, glencoe_clerk, species="other", kind="rabbit").kind == "rabbit"


def test_north_branch_registers_as_before(clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    animal = register_animal(owner, clerk, species="other")
    assert animal.kind == ""
    assert "class" not in Event.objects.get(action="licensing.animal.registered").data


def test_a_recorded_veterinary_exemption_lets_the_premises_hold_a_wild_animal(
    glencoe_clerk, gl_owner
):
    dog = register_animal(gl_owner, glencoe_clerk, species="dog")
    exemption = record_vet_exemption(dog.premises, glencoe_clerk)
    assert exemption.section == "Glencoe 701 Subd. 32(B)"
    assert "Subd. 31" in exemption.section_note  # the cross-reference error, as read (G8)
    hybrid = register_animal(gl_owner, glencoe_clerk, species="dog", kind="wolf_hybrid")
    assert hybrid.kind == "wolf_hybrid"

    register.exemption_end(
        exemption=exemption, ended_on=ON, reason="Clinic closed", actor=glencoe_clerk
    )
    later = date(2026, 5, 5)
    with pytest.raises(Refused):
        registry.animal_register(
            owner=gl_owner,
            actor=glencoe_clerk,
            on=later,
            name="B",
            species="dog",
            kind="wolf_hybrid",
        )


def test_exemptions_need_what_the_section_makes_them_depend_on(glencoe_clerk, gl_owner):
    premises = register_animal(gl_owner, glencoe_clerk, species="dog").premises
    with pytest.raises(Refused) as refused:
        record_vet_exemption(premises, glencoe_clerk, protective_devices_confirmed=False)
    assert refused.value.checks[0].field == "protective_devices_confirmed"
    with pytest.raises(Refused) as refused:
        record_vet_exemption(premises, glencoe_clerk, basis="rehabilitation")
    assert refused.value.checks[0].field == "zoning_confirmed"
    assert refused.value.checks[0].citation == "Glencoe 701 Subd. 32(C)"
    rehab = record_vet_exemption(
        premises, glencoe_clerk, basis="rehabilitation", zoning_confirmed=True
    )
    assert rehab.history.count() == 1
    with pytest.raises(RecordKept):
        rehab.delete()
    with pytest.raises(RecordKept):
        WildExemption.objects.all().delete()


def test_north_branch_records_no_exemption(clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    premises = register_animal(owner, clerk, species="dog").premises
    with pytest.raises(Refused):
        record_vet_exemption(premises, clerk)


# --- Per-lot caps ---------------------------------------------------------------------------


def test_one_pot_bellied_pig_per_lot_the_second_refused_with_the_section(glencoe_clerk, gl_owner):
    pig = register_animal(gl_owner, glencoe_clerk, species="other", kind="pot_bellied_pig")
    with pytest.raises(Refused) as refused:
        register_animal(gl_owner, glencoe_clerk, species="other", kind="pot_bellied_pig")
    check = refused.value.checks[0]
    assert check.citation == "Glencoe 701 Subd. 1(R)(3)" and "At most 1" in check.message
    caps = {c.code: c for c in premises_caps(premises=pig.premises, on=ON)}
    assert (caps["pot_bellied_pig"].count, caps["pot_bellied_pig"].cap) == (1, 1)
    # Another species is still welcome on the lot, and editing the pig counts it once.
    register_animal(gl_owner, glencoe_clerk, species="dog")
    registry.animal_update(
        animal=pig, actor=glencoe_clerk, on=ON, kind="pot_bellied_pig", name="Hamlet"
    )


def test_five_pigeons_per_lot(glencoe_clerk, gl_owner):
    for _ in range(5):
        register_animal(gl_owner, glencoe_clerk, species="other", kind="pigeon")
    with pytest.raises(Refused) as refused:
        register_animal(gl_owner, glencoe_clerk, species="other", kind="pigeon")
    assert "At most 5" in refused.value.checks[0].message


def test_changing_a_dog_into_a_wolf_hybrid_is_refused_too(glencoe_clerk, gl_owner):
    dog = register_animal(gl_owner, glencoe_clerk, species="dog")
    with pytest.raises(Refused) as refused:
        registry.animal_update(animal=dog, actor=glencoe_clerk, on=ON, kind="wolf_hybrid")
    assert refused.value.checks[0].citation == "Glencoe 701 Subd. 31(B)"
    dog.refresh_from_db()
    assert dog.kind == "dog"


def test_every_species_row_quotes_the_ordinance_text_verbatim():
    from ordinance.profiles import get_profile

    profile = get_profile("glencoe")
    for spec in profile.species.values():
        assert profile.passage(spec.quote) is not None, spec.code
    for rule_id in ("WLD-01", "WLD-03", "WLD-05", "WLD-06", "WLD-08"):
        assert profile.passage(profile.sections[rule_id].quote) is not None, rule_id
