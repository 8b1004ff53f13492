"""Registry services: city guard, events and history, date rules, transitions."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from licensing.services import registry as services
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory

ON = date(2026, 3, 2)
VET = {"veterinarian_name": "Dr. Karen Lindahl", "veterinarian_license": "MN-11873"}


def test_a_clerk_cannot_write_into_another_citys_registry(glencoe_clerk, north_branch):
    with pytest.raises(Refused, match="You do not serve City of North Branch"):
        services.owner_create(
            jurisdiction=north_branch,
            actor=glencoe_clerk,
            last_name="X",
            address_line="1 Main Street",
            city="North Branch",
            postal_code="55056",
        )
    owner = OwnerFactory(jurisdiction=north_branch)
    with pytest.raises(Refused):
        services.animal_register(owner=owner, actor=glencoe_clerk, on=ON, species="dog", name="Rex")


def test_two_owners_at_one_address_share_one_premises(clerk, north_branch):
    a = services.owner_create(
        jurisdiction=north_branch,
        actor=clerk,
        last_name="Olson",
        address_line="12 Elm  Street",
        city="North Branch",
        postal_code="55056",
    )
    b = services.owner_create(
        jurisdiction=north_branch,
        actor=clerk,
        last_name="Dahl",
        address_line="12 ELM STREET",
        city="North Branch",
        postal_code="55056",
    )
    assert services.owner_premises(a) == services.owner_premises(b)


def test_an_update_that_changes_nothing_records_nothing(clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    services.owner_update(owner=owner, actor=clerk, last_name=owner.last_name)
    assert not Event.objects.filter(action="licensing.owner.updated").exists()


def test_next_due_is_counted_from_the_labelled_duration_when_blank(clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    v = services.vaccination_record(
        animal=animal, actor=clerk, on=ON, vaccinated_on=date(2024, 2, 29), duration_years=1, **VET
    )
    assert v.next_due_on == date(2025, 2, 28)  # RAB-03, calendar arithmetic
    assert v.history.first().history_user == clerk


def test_a_vaccination_recorded_from_history_is_stamped_with_its_time(clerk, north_branch):
    """A certificate entered after the fact (demo data, paper records) reads at the time
    it was recorded: the Event and the history row follow ``now`` (RAB-01)."""
    animal = AnimalFactory(jurisdiction=north_branch)
    then = datetime(2024, 5, 14, 11, 30, tzinfo=ZoneInfo("America/Chicago"))
    v = services.vaccination_record(
        animal=animal,
        actor=clerk,
        on=date(2024, 5, 14),
        now=then,
        vaccinated_on=date(2024, 5, 10),
        **VET,
    )
    assert Event.objects.get(action="licensing.vaccination.recorded").at == then
    assert v.history.first().history_date == then


def test_a_vaccination_without_now_is_stamped_now(clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    before = timezone.now()
    services.vaccination_record(animal=animal, actor=clerk, on=ON, vaccinated_on=ON, **VET)
    assert Event.objects.get(action="licensing.vaccination.recorded").at >= before


def test_a_vaccination_needs_a_licensed_veterinarian(clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    with pytest.raises(services.Refused) as error:
        services.vaccination_record(
            animal=animal,
            actor=clerk,
            on=ON,
            vaccinated_on=ON,
            veterinarian_name="Owner",
            veterinarian_license="",
        )
    assert [c.field for c in error.value.checks] == ["veterinarian_license"]
    assert error.value.sections == ["North Branch Sec. 6-77"]


def test_a_vaccination_given_today_is_accepted_and_tomorrow_is_not(clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    services.vaccination_record(animal=animal, actor=clerk, on=ON, vaccinated_on=ON, **VET)
    with pytest.raises(services.Refused):
        services.vaccination_record(
            animal=animal, actor=clerk, on=ON, vaccinated_on=date(2026, 3, 3), **VET
        )


def test_deceased_is_a_one_way_transition(clerk, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    services.animal_mark_deceased(animal=animal, actor=clerk, on=ON)
    with pytest.raises(services.Refused):
        services.animal_mark_deceased(animal=animal, actor=clerk, on=ON)
    assert Event.objects.filter(action="licensing.animal.deceased").count() == 1


@pytest.mark.parametrize(
    "chip,expected",
    [("985 112-003 344 556", "985112003344556"), ("123456789", "123456789"), ("", "")],
)
def test_microchips_are_normalised(chip, expected):
    assert services.clean_microchip(chip) == expected
