"""Guards on who gets a license and what a license still allows.

- A transfer (LIC-12) puts the dog at the new owner's premises, so the premises' animal
  limit applies there (KEN-01, NB Sec. 6-29): refused at the limit unless the premises
  holds a current kennel license.
- A license is issued to the animal's recorded owner, never to someone else (LIC-04:
  the owner applies; LIC-12: a new owner takes the license over by transfer).
- A duplicate tag (LIC-10) is for a current license only; an expired, closed or void
  license gets none (LIC-14: tags move only through the transfer or duplicate workflows).

Dates are passed to the services (``on``/``now``), so the clock of the run does not matter.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from licensing.models import (
    KennelLicense,
    KennelStatus,
    License,
    LicenseStatus,
    Receipt,
    Species,
    Tag,
    TagStatus,
)
from licensing.services.assessment import license_assess
from licensing.services.expiry import licenses_expire
from licensing.services.licenses import license_close, license_issue, license_transfer
from licensing.services.registry import owner_premises
from licensing.services.tags import tag_replace_lost
from licensing.services.voids import receipt_void
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
ON = date(2026, 3, 2)
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)
LATER = date(2026, 5, 4)


@pytest.fixture
def stock(north_branch, clerk):
    return TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)


@pytest.fixture
def issued(north_branch, clerk, stock):
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash", now=NOW)


def _owner_with_adult_dogs(city, n):
    """An owner whose premises already keeps ``n`` adult dogs (KEN-01 counts them)."""
    owner = OwnerFactory(jurisdiction=city)
    premises = owner_premises(owner)
    for _ in range(n):
        AnimalFactory(
            jurisdiction=city,
            owner=owner,
            premises=premises,
            species=Species.DOG,
            date_of_birth=date(2020, 1, 1),
        )
    return owner, premises


# --- KEN-01 on a transfer (LIC-12) -----------------------------------------------------


def test_a_transfer_to_premises_already_at_the_limit_is_refused(issued, north_branch, clerk):
    """NB Sec. 6-29: three adult dogs at the new owner's premises; the fourth is refused."""
    new_owner, premises = _owner_with_adult_dogs(north_branch, 3)
    receipts = Receipt.objects.count()
    with pytest.raises(Refused, match="kennel license is needed") as refused:
        license_transfer(
            license=issued.license,
            new_owner=new_owner,
            actor=clerk,
            on=LATER,
            method="cash",
            now=NOW,
        )
    assert "6-29" in str(refused.value)
    license = License.objects.get(pk=issued.license.pk)
    assert license.owner_id == issued.license.owner_id
    assert license.animal.premises_id != premises.pk
    assert Receipt.objects.count() == receipts  # no transfer fee taken


def test_a_transfer_below_the_limit_goes_through(issued, north_branch, clerk):
    new_owner, premises = _owner_with_adult_dogs(north_branch, 2)
    result = license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=LATER, method="cash", now=NOW
    )
    assert result.license.owner == new_owner
    assert result.license.animal.premises_id == premises.pk


def test_a_transfer_over_the_limit_goes_through_with_a_current_kennel_license(
    issued, north_branch, clerk
):
    """KEN-01/KEN-03: past the limit the premises needs a kennel license; it has one."""
    new_owner, premises = _owner_with_adult_dogs(north_branch, 3)
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        number="K-2026-01",
        owner=new_owner,
        premises=premises,
        status=KennelStatus.ACTIVE,
        applied_on=ON,
        issued_on=ON,
        expires_on=date(2026, 12, 31),
    )
    result = license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=LATER, method="cash", now=NOW
    )
    assert result.license.owner == new_owner


def test_an_expired_kennel_license_does_not_lift_the_limit_on_a_transfer(
    issued, north_branch, clerk
):
    new_owner, premises = _owner_with_adult_dogs(north_branch, 3)
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        number="K-2025-01",
        owner=new_owner,
        premises=premises,
        status=KennelStatus.EXPIRED,
        applied_on=date(2025, 1, 5),
        issued_on=date(2025, 1, 5),
        expires_on=date(2025, 12, 31),
    )
    with pytest.raises(Refused, match="kennel license is needed"):
        license_transfer(
            license=issued.license,
            new_owner=new_owner,
            actor=clerk,
            on=LATER,
            method="cash",
            now=NOW,
        )


# --- The license goes to the animal's owner -----------------------------------------


def test_a_license_for_someone_other_than_the_animals_owner_is_refused(north_branch, clerk, stock):
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    neighbour = OwnerFactory(jurisdiction=north_branch)
    assessment = license_assess(animal=dog, owner=neighbour, on=ON)
    assert not assessment.can_issue
    assert [c.label for c in assessment.refusals] == ["Owner"]
    with pytest.raises(Refused, match="recorded owner"):
        license_issue(animal=dog, owner=neighbour, actor=clerk, on=ON, method="cash", now=NOW)
    assert not License.objects.filter(animal=dog).exists()
    assert not Receipt.objects.exists()
    assert not Tag.objects.exclude(status=TagStatus.AVAILABLE).exists()
    # The recorded owner gets it.
    result = license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash", now=NOW)
    assert result.license.owner == dog.owner and result.receipt.payer == dog.owner


def test_after_a_transfer_the_previous_owner_cannot_license_the_dog_again(
    issued, north_branch, clerk
):
    """LIC-12: the dog is the new owner's now; the old owner is not its owner for LIC-04."""
    old_owner = issued.license.owner
    new_owner = OwnerFactory(jurisdiction=north_branch)
    license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=LATER, method="cash", now=NOW
    )
    dog = License.objects.get(pk=issued.license.pk).animal
    with pytest.raises(Refused, match="recorded owner"):
        license_issue(
            animal=dog, owner=old_owner, actor=clerk, on=date(2026, 12, 10), method="cash", now=NOW
        )


# --- LIC-10 duplicate tag: current licenses only ---------------------------------------


def _expire(license, clerk):
    """The December 31 sweep has run: the license is marked expired (LIC-07)."""
    licenses_expire(now=datetime(2027, 1, 1, 0, 5, tzinfo=CHICAGO))


def _close(license, clerk):
    license_close(license=license, reason="moved_away", on=LATER, actor=clerk)


def _void(license, clerk):
    receipt_void(receipt=license.receipt, actor=clerk, reason="Entered in error", now=NOW)


@pytest.mark.parametrize(
    "end, status, on",
    [
        (None, LicenseStatus.ACTIVE, date(2027, 1, 4)),  # past its expiry, sweep not run yet
        (_expire, LicenseStatus.EXPIRED, date(2027, 1, 4)),
        (_close, LicenseStatus.CLOSED, date(2026, 6, 1)),
        (_void, LicenseStatus.VOID, date(2026, 6, 1)),
    ],
    ids=["past-expiry", "expired", "closed", "void"],
)
def test_a_duplicate_tag_on_a_license_no_longer_current_is_refused(issued, clerk, end, status, on):
    license = issued.license
    if end:
        end(license, clerk)
    license.refresh_from_db()
    assert license.status == status and not license.is_current(on)
    tags_before = dict(Tag.objects.values_list("pk", "status"))
    receipts = Receipt.objects.count()
    with pytest.raises(Refused, match="not current"):
        tag_replace_lost(license=license, actor=clerk, on=on, method="cash", now=NOW)
    assert dict(Tag.objects.values_list("pk", "status")) == tags_before  # none lost or issued
    assert Receipt.objects.count() == receipts  # no fee taken


def test_a_duplicate_tag_on_a_current_license_is_issued(issued, clerk):
    result = tag_replace_lost(license=issued.license, actor=clerk, on=LATER, method="cash", now=NOW)
    assert result.tag.number != issued.tag.number
    issued.tag.refresh_from_db()
    assert issued.tag.status == TagStatus.LOST


def test_a_duplicate_tag_after_a_transfer_is_charged_to_the_new_owner(issued, north_branch, clerk):
    """LIC-12 keeps the license current with its new owner; the duplicate is theirs."""
    new_owner = OwnerFactory(jurisdiction=north_branch)
    license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=LATER, method="cash", now=NOW
    )
    license = License.objects.get(pk=issued.license.pk)
    result = tag_replace_lost(license=license, actor=clerk, on=LATER, method="cash", now=NOW)
    assert result.receipt.payer == new_owner
