"""Transfer (LIC-12), address change (LIC-11), closing, with events and ownership history."""

from datetime import date
from decimal import Decimal

import pytest

from licensing.models import AnimalStatus, LicenceStatus, Ownership
from licensing.services.licences import (
    licence_address_change,
    licence_close,
    licence_issue,
    licence_transfer,
)
from ordinance.models import Event
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.licence_factories import TagStockFactory

ON = date(2026, 1, 15)


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return licence_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")


def test_transfer_keeps_number_and_expiry_and_charges_fee(issued, north_branch, clerk):
    new_owner = OwnerFactory(jurisdiction=north_branch)
    result = licence_transfer(licence=issued.licence, new_owner=new_owner, actor=clerk,
                              on=date(2026, 5, 1), method="cash")
    lic = result.licence
    assert lic.owner == new_owner and lic.number == issued.licence.number
    assert lic.expires_on == issued.licence.expires_on
    assert result.receipt.lines.get().amount == Decimal("5.00")
    assert Ownership.objects.get(animal=lic.animal, ended_on__isnull=True).owner == new_owner
    ended = Ownership.objects.get(animal=lic.animal, ended_on=date(2026, 5, 1))
    assert ended.history.first().ended_on == date(2026, 5, 1)  # audit history kept (REC-18)
    assert Event.objects.for_object(lic).filter(action="licensing.licence.transferred").exists()


@pytest.mark.parametrize("reported_on, late", [(date(2026, 5, 31), False),
                                               (date(2026, 6, 1), True)])
def test_address_change_late_after_30_days(issued, clerk, reported_on, late):
    change = licence_address_change(licence=issued.licence, moved_on=date(2026, 5, 1),
                                    reported_on=reported_on, within_city=True,
                                    address_line="9 Oak Street", actor=clerk)
    assert change.late is late and "6-61" in change.citation
    issued.licence.refresh_from_db()
    assert issued.licence.owner.address_line == "9 Oak Street"
    assert issued.licence.status == LicenceStatus.ACTIVE


def test_move_out_of_city_closes(issued, clerk):
    licence_address_change(licence=issued.licence, moved_on=date(2026, 5, 1),
                           reported_on=date(2026, 5, 2), within_city=False, actor=clerk)
    issued.licence.refresh_from_db()
    assert issued.licence.status == LicenceStatus.CLOSED
    assert issued.licence.animal.status == AnimalStatus.TRANSFERRED_OUT


def test_deceased_closes_licence(issued, clerk):
    licence_close(licence=issued.licence, reason="deceased", on=date(2026, 6, 1), actor=clerk)
    issued.licence.refresh_from_db()
    assert issued.licence.status == LicenceStatus.CLOSED
    assert issued.licence.animal.status == AnimalStatus.DECEASED
