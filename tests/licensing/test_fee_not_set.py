"""A fee the council has not set (FEE-01, LIC-06: "established by resolution"), or a fixed fee
an administrator blanked in the profile: the counter refuses with the section and takes no
money; never a 500 (style.md: a RuleUnavailable is a sentence a clerk can read).

The clock is fixed at a Monday in the 2026 license year for every page test.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from licensing.models import License, Receipt, Tag, TagStatus
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    review_steps,
)
from licensing.services.kennels.common import DecidedBy
from ordinance.amendments import rule_amend
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import FeeScheduleEntry
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)
TODAY = NOW.date()


@pytest.fixture(autouse=True)
def _frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def stock(north_branch, clerk):
    return TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=20)


@pytest.fixture
def dog(north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    animal = AnimalFactory(
        jurisdiction=north_branch,
        owner=owner,
        name="Scout",
        premises=PremisesFactory(jurisdiction=north_branch),
        breed="Beagle",
        color="Tricolor",
        date_of_birth=date(2022, 4, 1),
        acquired_on=date(2022, 6, 1),
    )
    RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2025, 9, 1))
    return animal


@pytest.fixture
def license(north_branch, clerk, stock):
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk, number="2026-0042")
    Tag.objects.filter(stock=stock, number=1).update(
        status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
    )
    return license


def blank(jurisdiction, key, administrator):
    """An administrator records the ordinance's fixed fee as blank from January 1."""
    rule_amend(
        jurisdiction=jurisdiction,
        key=key,
        value=None,
        effective_from=date(2026, 1, 1),
        ordinance_ref="Test: fee under review",
        actor=administrator,
    )


def no_council_fee(jurisdiction, code):
    # A city that never set this fee: the app refuses to delete fee rows (they are
    # superseded), so the test removes them below the model.
    rows = FeeScheduleEntry.objects.filter(jurisdiction=jurisdiction, code=code)
    rows._raw_delete(rows.db)


def test_fee_amount_names_the_section_when_nothing_is_in_force(north_branch, administrator):
    no_council_fee(north_branch, "dog_license")
    with pytest.raises(FeeNotSet, match=r"North Branch Sec\. 6-62") as refused:
        fee_amount(north_branch, "dog_license", on=TODAY)
    assert refused.value.citation == "North Branch Sec. 6-62"
    blank(north_branch, "duplicate_tag_fee", administrator)
    with pytest.raises(FeeNotSet, match=r"North Branch Sec\. 6-63"):
        fee_amount(north_branch, "duplicate_tag", on=TODAY)
    assert fee_amount(north_branch, "duplicate_tag", on=date(2025, 12, 31)).display() == "$3.00"


def test_the_counter_refuses_a_dog_license_without_a_council_fee(
    client_as, clerk, dog, stock, north_branch
):
    no_council_fee(north_branch, "dog_license")
    client = client_as(clerk)
    page = client.get(reverse("licensing:counter_animal", args=[dog.owner.pk]), {"animal": dog.pk})
    body = page.content.decode()
    assert page.status_code == 200 and "is not set" in body and "Sec. 6-62" in body
    assert "Continue to fee and payment" not in body
    pay_url = reverse("licensing:counter_pay", args=[dog.pk])
    assert "is not set" in client.get(pay_url).content.decode()
    response = client.post(pay_url, {"method": "cash", "amount_tendered": "100.00"})
    body = response.content.decode()
    assert response.status_code == 200 and "is not set" in body and "Sec. 6-62" in body
    assert not License.objects.exists() and not Receipt.objects.exists()


def test_a_duplicate_tag_with_a_blank_fee_is_refused_with_the_section(
    client_as, clerk, administrator, license, north_branch
):
    blank(north_branch, "duplicate_tag_fee", administrator)
    response = client_as(clerk).post(
        reverse("licensing:license_duplicate_tag", args=[license.pk]),
        {"method": "cash", "amount_tendered": "100.00"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and "is not set" in body and "Sec. 6-63" in body
    assert not Receipt.objects.exclude(pk=license.receipt_id).exists()
    assert Tag.objects.get(number=1).status == TagStatus.ISSUED  # not marked lost


def test_a_license_transfer_with_a_blank_fee_is_refused_with_the_section(
    client_as, clerk, administrator, license, north_branch
):
    blank(north_branch, "transfer_fee", administrator)
    buyer = OwnerFactory(jurisdiction=north_branch, last_name="Buyer")
    response = client_as(clerk).post(
        reverse("licensing:license_transfer", args=[license.pk]),
        {"new_owner": buyer.pk, "method": "cash", "amount_tendered": "100.00"},
    )
    body = response.content.decode()
    assert response.status_code == 200 and "is not set" in body and "Sec. 6-65(d)" in body
    license.refresh_from_db()
    assert license.owner != buyer
    assert not Receipt.objects.exclude(pk=license.receipt_id).exists()


def test_a_kennel_license_without_a_council_fee_is_refused_with_the_section(
    client_as, clerk, north_branch
):
    owner = OwnerFactory(jurisdiction=north_branch)
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=5, cat_count=0, cup_reference="CUP-1"
        ),
        actor=clerk,
        on=date(2026, 2, 20),
    )
    for step in review_steps(kennel, on=TODAY).value:
        kennel_decision_record(
            kennel=kennel,
            step=step,
            outcome="approved",
            decided=DecidedBy(
                name="Jane Roe", capacity="Council", on=date(2026, 2, 25), reasons="ok"
            ),
            actor=clerk,
            conditions="",
        )
    no_council_fee(north_branch, "kennel_license")
    client = client_as(clerk)
    page = client.get(kennel.get_absolute_url()).content.decode()
    assert "is not set" in page and "Sec. 6-65" in page
    response = client.post(
        reverse("licensing:kennel_action", args=[kennel.pk, "issue"]), {"issue-method": "cash"}
    )
    assert response.status_code == 400 and "is not set" in response.content.decode()
    kennel.refresh_from_db()
    assert kennel.status == "approved" and kennel.receipt_id is None
    assert not Receipt.objects.exists()
