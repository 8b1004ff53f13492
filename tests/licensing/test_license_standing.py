"""One answer to "does this animal need a license, and is it covered" on every page.

The standing service (licensing.services.standing) at its edges with fixed dates, then a
puppy, a service dog, an expired and a current license through every page that shows
standing: the same label, reason and section on each. Rules (rules.md): LIC-01 (license
age, NB Sec. 6-60), LIC-02 (exemptions), LIC-07 (expiry, NB Sec. 6-62), LIC-13 (renewal
window, NB Sec. 6-65(c)), LIC-16 (Glencoe 701 Subd. 2(D), deleted by Ord. 571), LIC-18.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils.html import escape

from licensing.models import Animal, AnimalStatus, LicenseStatus, Species, Tag, TagStatus
from licensing.services.assessment import license_assess
from licensing.services.licenses import exemption_record
from licensing.services.standing import (
    Standing,
    license_standing,
    license_standings,
    standing_prefetch,
)
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
TODAY = date(2026, 6, 15)
PUPPY_BORN = date(2026, 1, 10)  # six months on July 10; "over six months" from July 11

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen_today():
    with time_machine.travel(datetime(2026, 6, 15, 10, tzinfo=CHICAGO), tick=False):
        yield


@pytest.fixture
def rita(north_branch, resident):
    return OwnerFactory(
        jurisdiction=north_branch, user=resident, first_name="Rita", last_name="Resident"
    )


def _dog(owner, name, **fields):
    # premises=None: several animals of one owner would clash on the factory's premises.
    return AnimalFactory(
        jurisdiction=owner.jurisdiction, owner=owner, name=name, premises=None, **fields
    )


def _licensed(owner, clerk, name, *, year, status=LicenseStatus.ACTIVE, tag_number):
    dog = _dog(owner, name)
    license = LicenseFactory(
        jurisdiction=owner.jurisdiction,
        animal=dog,
        owner=owner,
        issued_by=clerk,
        term_start=date(year, 1, 1),
        expires_on=date(year, 12, 31),
        issued_on=date(year, 1, 15),
        number=f"{year}-{tag_number:04d}",
        status=status,
    )
    stock = TagStockFactory(
        jurisdiction=owner.jurisdiction,
        recorded_by=clerk,
        year=year,
        first_number=tag_number,
        last_number=tag_number,
    )
    Tag.objects.filter(stock=stock).update(
        status=TagStatus.ISSUED, license=license, issued_on=date(year, 1, 15)
    )
    return dog, license


@pytest.fixture
def four(rita, clerk):
    """The puppy, the service dog, the expired license and the current one."""
    puppy = _dog(rita, "Pip", date_of_birth=PUPPY_BORN)
    service = _dog(rita, "Sage", is_service_animal=True)
    expired, _old = _licensed(
        rita, clerk, "Rusty", year=2025, status=LicenseStatus.EXPIRED, tag_number=31
    )
    current, _license = _licensed(rita, clerk, "Juniper", year=2026, tag_number=7)
    return {"puppy": puppy, "service": service, "expired": expired, "current": current}


def _standing(animal, on=TODAY):
    return license_standing(standing_prefetch(Animal.objects).get(pk=animal.pk), on=on)


# --- The service at its edges -------------------------------------------------------------


def test_a_puppy_is_not_required_the_day_it_reaches_six_months(four):
    # LIC-01: strictly "over six months old" (license_age_comparison = gt).
    standing = _standing(four["puppy"], on=date(2026, 7, 10))
    assert standing.state == Standing.NOT_REQUIRED
    assert standing.reason == "Under the license age of 6 months: required from Jul 11, 2026."
    assert standing.citation == "North Branch Sec. 6-60"
    assert standing.required_from == date(2026, 7, 11) and standing.is_covered


def test_a_puppy_is_required_the_day_after_it_reaches_six_months(four):
    standing = _standing(four["puppy"], on=date(2026, 7, 11))
    assert standing.state == Standing.REQUIRED and not standing.is_covered
    assert standing.reason == (
        "Over the license age of 6 months since Jul 11, 2026: a license is required."
    )
    assert standing.citation == "North Branch Sec. 6-60"


def test_a_service_dog_is_exempt_with_the_section(four):
    standing = _standing(four["service"])  # LIC-02(c)
    assert (standing.state, standing.reason, standing.citation) == (
        Standing.EXEMPT,
        "Exempt: Service or guide animal.",
        "North Branch Sec. 6-60",
    )


def test_an_expired_license_gives_its_date(four):
    standing = _standing(four["expired"])
    assert standing.state == Standing.EXPIRED and standing.license.number == "2025-0031"
    assert standing.reason == "License 2025-0031 expired Dec 31, 2025; a license is required."
    assert standing.citation == "North Branch Sec. 6-62; North Branch Sec. 6-60"


def test_a_current_license_gives_number_tag_and_expiry_with_its_section(four):
    standing = _standing(four["current"])  # LIC-07
    assert standing.state == Standing.LICENSED
    assert standing.reason == "License 2026-0007, tag 7 (2026), expires Dec 31, 2026."
    assert standing.citation == "North Branch Sec. 6-62"


def test_the_renewal_window_opens_thirty_days_before_the_term(four):
    # LIC-13: Dec 2 in North Branch (30 days before Jan 1).
    assert _standing(four["current"], on=date(2026, 12, 1)).state == Standing.LICENSED
    standing = _standing(four["current"], on=date(2026, 12, 2))
    assert standing.state == Standing.RENEWAL_OPEN and standing.is_covered
    assert "Renewal for the next term is open since Dec 2, 2026." in standing.reason
    assert standing.citation == "North Branch Sec. 6-62; North Branch Sec. 6-65(c)"


def test_an_expired_license_lapses_on_january_first(four):
    assert _standing(four["current"], on=date(2026, 12, 31)).state == Standing.RENEWAL_OPEN
    assert _standing(four["current"], on=date(2027, 1, 1)).state == Standing.EXPIRED


def test_a_void_license_does_not_count(four):
    four["current"].licenses.update(status=LicenseStatus.VOID)
    assert _standing(four["current"]).state == Standing.REQUIRED


def test_a_glencoe_dog_needs_no_license_citing_the_deleted_section(glencoe):
    owner = OwnerFactory(jurisdiction=glencoe)
    standing = _standing(_dog(owner, "Biscuit"))  # LIC-16
    assert standing.state == Standing.NOT_REQUIRED
    assert standing.reason == (
        "Glencoe issues no dog licenses: the licensing section was deleted from its ordinance."
    )
    assert standing.citation == "Glencoe 701 Subd. 2(D), Ord. No. 571"


def test_a_north_branch_cat_needs_no_license(rita):
    standing = _standing(_dog(rita, "Mochi", species=Species.CAT))  # LIC-18
    assert (standing.state, standing.reason, standing.citation) == (
        Standing.NOT_REQUIRED,
        "North Branch does not license cats.",
        "North Branch Sec. 6-60",
    )


def test_a_recorded_visitor_exemption_runs_to_its_end(rita, clerk):
    dog = _dog(rita, "Visitor")
    exemption_record(
        animal=dog,
        kind="temporary_visitor",
        starts_on=date(2026, 6, 1),
        evidence="Staying with family",
        actor=clerk,
    )
    standing = _standing(dog)  # LIC-02(a): 30 days from arrival
    assert standing.state == Standing.EXEMPT
    assert standing.reason == (
        "Exempt: Owner temporarily in the city until Jul 1, 2026 (Staying with family)."
    )
    assert _standing(dog, on=date(2026, 7, 2)).state == Standing.REQUIRED


def test_a_deceased_dog_is_inactive(rita):
    standing = _standing(_dog(rita, "Old Blue", status=AnimalStatus.DECEASED))
    assert standing.state == Standing.INACTIVE
    assert standing.reason == "Deceased: no license is needed."


def test_many_animals_cost_a_fixed_number_of_queries(
    rita, clerk, glencoe, django_assert_max_num_queries
):
    for n in range(12):
        _licensed(rita, clerk, f"Dog {n}", year=2026, tag_number=100 + n)
        _dog(rita, f"Pup {n}", date_of_birth=PUPPY_BORN)
    _dog(OwnerFactory(jurisdiction=glencoe), "Biscuit")
    # The animals with their cities, licenses, tags and exemptions; one rule read per city.
    with django_assert_max_num_queries(6):
        standings = license_standings(standing_prefetch(Animal.objects.all()), on=TODAY)
    assert len(standings) == 25


def test_the_counter_check_reads_the_same_service(four, rita):
    assessment = license_assess(animal=four["service"], owner=rita, on=TODAY)
    check = next(c for c in assessment.checks if c.label == "Exemption")
    assert check.status == "info" and check.citation == "North Branch Sec. 6-60"
    assert check.message == "Exempt from licensing. Exempt: Service or guide animal."


# --- Every page that shows standing says the same ----------------------------------------


def _assert_shows(html: str, standing) -> None:
    assert f'data-standing="{standing.state}"' in html
    for part in (standing.label, standing.reason, standing.citation):
        assert escape(part) in html, part


def test_every_page_shows_the_same_standing(four, rita, resident, clerk, client_as):
    expected = {key: _standing(animal) for key, animal in four.items()}
    assert [s.state for s in expected.values()] == [
        Standing.NOT_REQUIRED,
        Standing.EXEMPT,
        Standing.EXPIRED,
        Standing.LICENSED,
    ]

    portal = client_as(resident)
    home = portal.get(reverse("licensing:portal_home")).content.decode()
    for key, animal in four.items():
        _assert_shows(home, expected[key])
        page = portal.get(reverse("licensing:portal_animal", args=[animal.pk]))
        _assert_shows(page.content.decode(), expected[key])

    staff = client_as(clerk)
    owner_page = staff.get(reverse("licensing:owner_detail", args=[rita.pk])).content.decode()
    for key, animal in four.items():
        _assert_shows(owner_page, expected[key])
        page = staff.get(reverse("licensing:animal_detail", args=[animal.pk]))
        _assert_shows(page.content.decode(), expected[key])
        counter = staff.get(
            reverse("licensing:counter_animal", args=[rita.pk]), {"animal": animal.pk}
        )
        _assert_shows(counter.content.decode(), expected[key])

    # The lost-dog report finds the licensed dogs by tag (LIC-09) and says the same.
    for key, number, year in (("expired", 31, 2025), ("current", 7, 2026)):
        page = staff.get(reverse("licensing:tag_lookup"), {"number": number, "year": year})
        _assert_shows(page.content.decode(), expected[key])
