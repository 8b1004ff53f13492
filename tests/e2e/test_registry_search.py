"""A clerk finds an owner and an animal by typing, without pressing Enter; axe passes."""

import re

import pytest
from playwright.sync_api import expect

from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory


@pytest.fixture
def registry(north_branch, glencoe):
    ingrid = OwnerFactory(jurisdiction=north_branch, first_name="Ingrid",
                          last_name="Halvorson", address_line="6125 Maple Street")
    biscuit = AnimalFactory(jurisdiction=north_branch, owner=ingrid, name="Biscuit",
                            microchip="985112003344556")
    RabiesVaccinationFactory(animal=biscuit)
    other = OwnerFactory(jurisdiction=north_branch, first_name="Lars", last_name="Nelson",
                         address_line="400 Elm Street")
    AnimalFactory(jurisdiction=north_branch, owner=other, name="Moose",
                  microchip="985000000000777")
    return ingrid, biscuit


def test_clerk_types_a_name_then_a_microchip_and_sees_results_appear(
        page, login_as, assert_accessible, clerk, registry):
    ingrid, biscuit = registry
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

    results.get_by_role("link", name="Ingrid Halvorson").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ingrid Halvorson")
    assert_accessible()
    page.get_by_role("link", name="Biscuit").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Biscuit")
    expect(page.get_by_text("No licences")).to_be_visible()
    assert_accessible()
    page.goto(f"/owners/{ingrid.pk}/animals/new/")
    assert_accessible()
    page.goto(f"/animals/{biscuit.pk}/vaccinations/new/")
    assert_accessible()
