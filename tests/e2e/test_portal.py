"""A resident with the demo's records logs in, sees the dog and its license, opens the
animal page and downloads the receipt; axe passes on each page (LIC-07, LIC-08, REC-01)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from demo.registry import PLANS, ensure_resident_animals
from licensing.services.assessment import license_term
from licensing.services.licenses import license_issue
from tests.licensing.license_factories import TagStockFactory


@pytest.fixture(autouse=True)
def _before_renewal_season():
    """These pages are about the current term: run on December 1, 2026, the day before
    North Branch's next-term sales open (Sec. 6-65(c)), whatever the real date.
    Ticking, so the live server and the browser see time pass."""
    with time_machine.travel(
        datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


@pytest.fixture
def demo_resident(resident, north_branch, clerk, settings, tmp_path):
    """The demo resident's two animals (Juniper the dog, Mochi the cat), Juniper licensed
    at the counter through the services, with the receipt and certificate archived."""
    settings.MEDIA_ROOT = tmp_path / "media"
    today = timezone.localdate()
    owner = ensure_resident_animals(resident, north_branch, today=today)
    _start, expires_on, _renewal = license_term(jurisdiction=north_branch, on=today)
    TagStockFactory(
        jurisdiction=north_branch,
        recorded_by=clerk,
        year=expires_on.year,
        first_number=301,
        last_number=310,
    )
    juniper = owner.animals.get(name="Juniper")
    return license_issue(animal=juniper, owner=owner, actor=clerk, on=today, method="cash")


def test_resident_sees_the_dog_and_its_license_then_opens_the_animal_page(
    page, login_as, assert_accessible, resident, demo_resident
):
    license, tag = demo_resident.license, demo_resident.tag
    login_as(resident)

    expect(page.get_by_role("heading", level=1)).to_contain_text("Welcome")
    animals = page.get_by_role("table").first
    expect(animals).to_contain_text("Juniper")
    expect(animals).to_contain_text("Golden Retriever")
    expect(animals).to_contain_text(f"License {license.number}, tag {tag.number} ({tag.year})")
    expect(animals).to_contain_text("North Branch Sec. 6-62")
    expect(animals).to_contain_text("Mochi")
    expect(animals).to_contain_text("North Branch does not license cats.")
    expect(
        page.get_by_role("link", name=f"PDF of Receipt {demo_resident.receipt.number}").first
    ).to_be_visible()
    assert_accessible()

    page.get_by_role("link", name="Juniper").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Juniper")
    history = page.get_by_role("table").first
    expect(history).to_contain_text(license.number)
    expect(history).to_contain_text(f"{tag.number} ({tag.year})")
    expect(page.get_by_role("heading", name="Rabies vaccinations")).to_be_visible()
    vet = PLANS["north-branch"].clinics[0].vets[0][0]
    expect(page.get_by_role("table").nth(1)).to_contain_text(vet)
    assert_accessible()

    page.get_by_role("link", name="Back to your animals").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Welcome")
