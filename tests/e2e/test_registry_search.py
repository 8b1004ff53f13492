"""A clerk finds an owner and an animal by typing, without pressing Enter; axe passes."""

import re

import pytest
from playwright.sync_api import expect

from licensing.models import Tag, TagStatus
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import LicenseFactory, TagStockFactory


@pytest.fixture
def registry(north_branch, glencoe, administrator):
    ingrid = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ingrid",
        last_name="Halvorson",
        address_line="6125 Maple Street",
    )
    biscuit = AnimalFactory(
        jurisdiction=north_branch, owner=ingrid, name="Biscuit", microchip="985112003344556"
    )
    RabiesVaccinationFactory(animal=biscuit)
    other = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Lars",
        last_name="Nelson",
        address_line="400 Elm Street",
    )
    AnimalFactory(jurisdiction=north_branch, owner=other, name="Moose", microchip="985000000000777")
    # Biscuit wears license tag 417 of this year's stock (LIC-09: a lost dog's tag).
    license = LicenseFactory(jurisdiction=north_branch, animal=biscuit, issued_by=administrator)
    TagStockFactory(
        jurisdiction=north_branch,
        year=license.term_start.year,
        first_number=400,
        last_number=420,
        recorded_by=administrator,
    )
    Tag.objects.filter(jurisdiction=north_branch, number=417).update(
        status=TagStatus.ISSUED, license=license
    )
    return ingrid, biscuit, license.number


def test_clerk_types_a_name_a_microchip_and_a_tag_number_and_sees_results_appear(
    page, login_as, assert_accessible, clerk, registry
):
    ingrid, biscuit, license_number = registry
    login_as(clerk)
    page.goto("/search/")
    assert_accessible()
    box = page.get_by_label(re.compile("Owner name, address, phone"))
    box.press_sequentially("halvor", delay=40)
    results = page.locator("#search-results")
    expect(results).to_contain_text("Ingrid Halvorson")
    expect(results).not_to_contain_text("Lars Nelson")
    assert_accessible()

    box.fill("")
    box.press_sequentially("98511200334", delay=30)
    expect(results.locator("mark")).to_have_text("Biscuit")
    expect(results).not_to_contain_text("Moose")

    box.fill("")
    box.press_sequentially("417", delay=40)
    expect(results.locator("mark")).to_have_text("Biscuit")
    expect(results).to_contain_text("Ingrid Halvorson")

    results.get_by_role("link", name="Ingrid Halvorson").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ingrid Halvorson")
    assert_accessible()
    page.get_by_role("link", name="Biscuit").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Biscuit")
    expect(page.locator("main")).to_contain_text(license_number)
    assert_accessible()
    page.goto(f"/owners/{ingrid.pk}/animals/new/")
    assert_accessible()
    page.goto(f"/animals/{biscuit.pk}/vaccinations/new/")
    assert_accessible()
