"""The vaccination status on the staff animal page and the resident portal: licensing's
one answer, the same words (label, reason, section) on both."""

from datetime import date

import pytest
from django.urls import reverse

from licensing.services.vaccination import vaccination_status
from ordinance.amendments import rule_amend
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import vaccinate

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]
TODAY = date(2026, 12, 7)


def _pages(client, staff, resident, animal):
    animal.owner.user = resident
    animal.owner.save()
    client.force_login(staff)
    staff_page = client.get(reverse("licensing:animal_detail", args=[animal.pk]))
    client.force_login(resident)
    portal_page = client.get(reverse("licensing:portal_animal", args=[animal.pk]))
    portal_home = client.get(reverse("licensing:portal_home"))
    assert staff_page.status_code == portal_page.status_code == portal_home.status_code == 200
    return [p.content.decode() for p in (staff_page, portal_page, portal_home)]


def _same_words(pages, status):
    for page in pages:
        assert status.label in page
        assert status.reason.replace("'", "&#x27;") in page or status.reason in page
        assert f"({status.citation})" in page


def test_a_current_vaccination_reads_the_same_for_staff_and_owner(
    client, officer, resident, north_branch
):
    dog = owned_dog(north_branch, name="Scout")
    vaccinate(dog, date(2026, 6, 1))
    pages = _pages(client, officer, resident, dog)
    status = vaccination_status(dog, on=TODAY)
    assert status.reason == "Vaccinated Jun 1, 2026; due again by Jun 1, 2027."
    _same_words(pages, status)


def test_glencoe_unknown_until_the_minimum_age_is_entered(
    client, officer, administrator, resident, glencoe
):
    pup = owned_dog(glencoe, name="Pip", date_of_birth=date(2026, 9, 1), acquired_on=None)
    pages = _pages(client, officer, resident, pup)
    status = vaccination_status(pup, on=TODAY)
    assert status.label == "Vaccination status unknown"
    assert status.citation == "Glencoe 701 Subd. 20(B)"
    _same_words(pages, status)
    rule_amend(
        jurisdiction=glencoe,
        key="compendium_min_age_months",
        value=3,
        effective_from=date(2026, 1, 1),
        ordinance_ref="Compendium 2026",
        actor=administrator,
    )
    pages = _pages(client, officer, resident, pup)
    status = vaccination_status(pup, on=TODAY)
    assert status.label == "Too young to be vaccinated"
    assert "to be vaccinated by Dec 31, 2026" in status.reason
    _same_words(pages, status)


def test_an_overdue_dog_tells_the_owner_what_to_do(client, officer, resident, north_branch):
    dog = owned_dog(north_branch, name="Rusty")
    vaccinate(dog, date(2025, 6, 1))
    staff, portal, home = _pages(client, officer, resident, dog)
    assert "Vaccination overdue" in staff and "Vaccination overdue" in portal
    assert "bring the veterinarian's certificate to the clerk's counter" in portal


def test_a_nonresident_confined_dog_shows_exempt(client, officer, clerk, resident, north_branch):
    from licensing.models import LicenseExemption
    from licensing.models.licenses import ExemptionKind

    dog = owned_dog(north_branch, name="Visitor", resident=False)
    LicenseExemption.objects.create(
        jurisdiction=north_branch,
        animal=dog,
        kind=ExemptionKind.NONRESIDENT_CONFINED,
        starts_on=date(2026, 11, 1),
        evidence="Kept in the owner's camper",
        recorded_by=clerk,
    )
    pages = _pages(client, officer, resident, dog)
    status = vaccination_status(dog, on=TODAY)
    assert status.label == "Exempt from vaccination"
    assert status.citation == "North Branch Sec. 6-96(4)(b)"
    _same_words(pages, status)


def test_the_status_costs_the_animal_page_no_query(
    client, officer, north_branch, django_assert_max_num_queries, monkeypatch
):
    """The page's prefetches (vaccinations, exemptions) and the request's rule rows
    already hold what the status reads; the page keeps its budget of 18
    (tests/licensing/test_registry_views.py)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from licensing.views import registry

    dog = owned_dog(north_branch, name="Budget")
    for year in (2023, 2024, 2025):
        vaccinate(dog, date(year, 6, 1))
    counted = []

    def counting(animal, *, on):
        with CaptureQueriesContext(connection) as queries:
            status = vaccination_status(animal, on=on)
        counted.append(len(queries))
        return status

    monkeypatch.setattr(registry, "vaccination_status", counting)
    client.force_login(officer)
    with django_assert_max_num_queries(18):
        response = client.get(reverse("licensing:animal_detail", args=[dog.pk]))
    assert "Vaccination overdue" in response.content.decode()
    assert counted == [0]
