"""What cannot be undone asks for a reason and a confirmation: voiding
a receipt, closing a license, recording a death. The first POST changes nothing and shows
the choices; "Change" brings the form back filled in; the confirmed POST does it."""

from datetime import date

import pytest
from django.urls import reverse

from licensing.models import Receipt
from licensing.services.licenses import license_issue
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-01-15T10:00")]
TODAY = date(2026, 1, 15)


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")


def test_a_void_is_confirmed_before_it_is_made(issued, clerk, client_as):
    client = client_as(clerk)
    url = reverse("licensing:receipt_void", args=[issued.receipt.pk])
    page = client.post(url, {"reason": "Paid twice"}).content.decode()
    assert "Please confirm" in page and f"Yes, void receipt {issued.receipt.number}" in page
    assert 'name="reason" value="Paid twice"' in page and "Paid twice" in page
    assert not Receipt.objects.filter(voids=issued.receipt).exists()
    changed = client.post(url, {"reason": "Paid twice", "change": "1"}).content.decode()
    assert "Please confirm" not in changed and "Paid twice" in changed
    assert not Receipt.objects.filter(voids=issued.receipt).exists()
    response = client.post(url, {"reason": "Paid twice", "confirmed": "on"})
    void = Receipt.objects.get(voids=issued.receipt)
    assert response.status_code == 302 and void.void_reason == "Paid twice"


def test_a_void_without_a_reason_asks_for_it_and_is_not_confirmed(issued, clerk, client_as):
    url = reverse("licensing:receipt_void", args=[issued.receipt.pk])
    page = client_as(clerk).post(url, {"reason": "", "confirmed": "on"}).content.decode()
    assert "Please confirm" not in page and "This field is required" in page
    assert not Receipt.objects.filter(voids=issued.receipt).exists()


def test_closing_a_license_is_confirmed_first(issued, clerk, client_as):
    license = issued.license
    client = client_as(clerk)
    url = reverse("licensing:license_close", args=[license.pk])
    data = {"reason": "deceased", "on": "2026-01-14"}
    page = client.post(url, data).content.decode()
    assert "Please confirm" in page and "The animal died" in page and "Jan 14, 2026" in page
    license.refresh_from_db()
    assert license.status == "active"
    response = client.post(url, {**data, "confirmed": "on"})
    assert response.status_code == 302
    license.refresh_from_db()
    assert license.status != "active"


def test_recording_a_death_needs_how_it_was_reported(client_as, clerk, north_branch):
    dog = AnimalFactory(jurisdiction=north_branch)
    url = reverse("licensing:animal_mark_deceased", args=[dog.pk])
    response = client_as(clerk).post(url, {"died_on": "2026-01-10", "confirmed": "on"})
    body = response.content.decode()
    assert response.status_code == 400 and "This field is required" in body
    assert 'value="2026-01-10"' in body  # what was typed is kept
    dog.refresh_from_db()
    assert dog.is_alive()
