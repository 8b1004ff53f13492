"""'s last "Done when" in a real browser: a North Branch premises page shows no
permit section; registering a wolf hybrid as a Glencoe pet is refused with Subd. 31,
next to the kind beside the species (items 1, 2 and 5; WLD-01, WLD-03, REC-17)."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import Animal
from licensing.services import registry
from tests.licensing.factories import OwnerFactory


@pytest.mark.django_db(transaction=True)
def test_north_branch_premises_has_no_permit_section(
    page, login_as, clerk, north_branch, assert_accessible
):
    owner = OwnerFactory(jurisdiction=north_branch, last_name="Nbowner")
    dog = registry.animal_register(
        owner=owner, actor=clerk, on=timezone.localdate(), species="dog", name="Rex"
    )
    login_as(clerk)
    page.goto(owner.get_absolute_url())
    page.get_by_role("link", name=dog.premises.address).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(dog.premises.address)
    expect(page.get_by_role("heading", name="Animal limit at the premises")).to_be_visible()
    expect(page.get_by_role("heading", name="What these premises may keep")).to_have_count(0)
    expect(page.get_by_role("heading", name="Per-lot caps")).to_have_count(0)
    assert "Subd." not in page.content()
    assert_accessible()


@pytest.mark.django_db(transaction=True)
def test_a_wolf_hybrid_as_a_glencoe_pet_is_refused_with_subd_31(
    page, login_as, glencoe_clerk, glencoe, assert_accessible
):
    owner = OwnerFactory(jurisdiction=glencoe, last_name="Glowner", address_line="9 Birch Ave")
    login_as(glencoe_clerk)
    page.goto(owner.get_absolute_url())
    page.get_by_role("link", name="Register an animal").first.click()
    page.locator("#id_species").select_option("dog")
    page.locator("#id_kind").select_option("wolf_hybrid")
    page.locator("#id_name").fill("Loki")
    page.get_by_role("button", name="Register animal").click()
    error = page.locator("#div_id_kind")  # the refusal sits with the kind, beside species
    expect(error).to_contain_text("Glencoe 701 Subd. 31(B)")
    expect(error).to_contain_text("wild animal")
    assert not Animal.objects.filter(owner=owner).exists()
    assert_accessible()

    # A domestic dog is a pet (Subd. 1(R)(1)): it registers, and its page says so.
    page.locator("#id_kind").select_option("dog")
    page.get_by_role("button", name="Register animal").click()
    section = page.locator("section", has=page.locator("#species-class-heading"))
    expect(section).to_contain_text("Domestic dog: Pet (Glencoe 701 Subd. 1(R)(1))")
    dog = Animal.objects.get(owner=owner)
    page.goto(_premises_url(dog))
    expect(page.get_by_role("heading", name="What these premises may keep")).to_be_visible()
    expect(page.locator("#caps")).to_contain_text("0 of at most 1 Vietnamese pot-bellied pig")
    assert_accessible()


def _premises_url(animal):
    from django.urls import reverse

    return reverse("licensing:premises_detail", args=[animal.premises_id])
