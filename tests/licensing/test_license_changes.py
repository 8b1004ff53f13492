"""Transfer (LIC-12), address change (LIC-11), closing, with events and ownership history."""

from datetime import date
from decimal import Decimal

import pytest

from licensing.models import AnimalStatus, LicenseStatus, Ownership
from licensing.services.licenses import (
    NewAddress,
    license_address_change,
    license_close,
    license_issue,
    license_transfer,
)
from ordinance.models import Event
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

ON = date(2026, 1, 15)


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")


def test_transfer_keeps_number_and_expiry_and_charges_fee(issued, north_branch, clerk):
    new_owner = OwnerFactory(jurisdiction=north_branch)
    result = license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=date(2026, 5, 1), method="cash"
    )
    lic = result.license
    assert lic.owner == new_owner and lic.number == issued.license.number
    assert lic.expires_on == issued.license.expires_on
    assert result.receipt.lines.get().amount == Decimal("5.00")
    assert Ownership.objects.get(animal=lic.animal, ended_on__isnull=True).owner == new_owner
    ended = Ownership.objects.get(animal=lic.animal, ended_on=date(2026, 5, 1))
    assert ended.history.first().ended_on == date(2026, 5, 1)  # audit history kept (REC-18)
    assert Event.objects.for_object(lic).filter(action="licensing.license.transferred").exists()


@pytest.mark.parametrize(
    "reported_on, late", [(date(2026, 5, 31), False), (date(2026, 6, 1), True)]
)
def test_address_change_late_after_30_days(issued, clerk, reported_on, late):
    change = license_address_change(
        license=issued.license,
        moved_on=date(2026, 5, 1),
        reported_on=reported_on,
        within_city=True,
        address=NewAddress(address_line="9 Oak Street"),
        actor=clerk,
    )
    assert change.late is late and "6-61" in change.citation
    issued.license.refresh_from_db()
    assert issued.license.owner.address_line == "9 Oak Street"
    assert issued.license.status == LicenseStatus.ACTIVE


def test_move_out_of_city_closes(issued, clerk):
    license_address_change(
        license=issued.license,
        moved_on=date(2026, 5, 1),
        reported_on=date(2026, 5, 2),
        within_city=False,
        actor=clerk,
    )
    issued.license.refresh_from_db()
    assert issued.license.status == LicenseStatus.CLOSED
    assert issued.license.animal.status == AnimalStatus.TRANSFERRED_OUT


def test_deceased_closes_license(issued, clerk):
    license_close(license=issued.license, reason="deceased", on=date(2026, 6, 1), actor=clerk)
    issued.license.refresh_from_db()
    assert issued.license.status == LicenseStatus.CLOSED
    assert issued.license.animal.status == AnimalStatus.DECEASED
