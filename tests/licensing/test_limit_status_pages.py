"""The animal and owner pages show the premises' animal limit and whether a license is
required, each in the city's own numbers with its section (KEN-01, LIC-01, LIC-16:
the same screen shows North Branch's values for a North Branch premises and
Glencoe's for a Glencoe premises)."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import Species
from tests.licensing.factories import AnimalFactory, OwnerFactory, PremisesFactory

TODAY = "2026-05-01 10:00 -05:00"
ADULT = date(2020, 1, 1)


def household(jurisdiction, dogs, cats):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    premises = PremisesFactory(jurisdiction=jurisdiction, address_line=owner.address_line)
    animals = [
        AnimalFactory(
            jurisdiction=jurisdiction,
            owner=owner,
            premises=premises,
            species=Species.DOG,
            date_of_birth=ADULT,
        )
        for _ in range(dogs)
    ]
    animals += [
        AnimalFactory(
            jurisdiction=jurisdiction,
            owner=owner,
            premises=premises,
            species=Species.CAT,
            date_of_birth=ADULT,
        )
        for _ in range(cats)
    ]
    return owner, animals


@pytest.fixture
def pages(client_as, administrator, north_branch, glencoe):
    """One administrator who serves both cities, so one template shows both."""
    return client_as(administrator)


@time_machine.travel(TODAY, tick=False)
def test_a_north_branch_dog_shows_north_branch_numbers_and_sections(pages, north_branch):
    _owner, (dog, *_rest) = household(north_branch, dogs=2, cats=0)
    page = pages.get(reverse("licensing:animal_detail", args=[dog.pk])).content.decode()
    assert "2 of 3 adult dogs, 0 of 3 adult cats — " in page
    assert "North Branch Sec. 6-29" in page and "in all" not in page
    assert "a license is required" in page and "North Branch Sec. 6-60" in page


@time_machine.travel(TODAY, tick=False)
def test_a_glencoe_dog_shows_glencoes_numbers_and_sections(pages, glencoe):
    _owner, (dog, *_rest) = household(glencoe, dogs=2, cats=2)
    page = pages.get(reverse("licensing:animal_detail", args=[dog.pk])).content.decode()
    assert "2 of 2 adult dogs, 2 of 2 adult cats, 4 of 4 in all — Glencoe 701 Subd. 4(A)" in page
    assert "Sec. 6-29" not in page
    assert "Glencoe issues no dog licenses" in page and "Glencoe 701 Subd. 2(D)" in page


@time_machine.travel(TODAY, tick=False)
def test_over_the_limit_is_marked_and_says_a_kennel_license_is_needed(pages, glencoe):
    owner, _animals = household(glencoe, dogs=3, cats=0)
    page = pages.get(reverse("licensing:owner_detail", args=[owner.pk])).content.decode()
    assert "<strong>3 of 2 adult dogs</strong>" in page
    assert "a kennel license is needed first" in page and "Glencoe 701 Subd. 4(A)" in page


@time_machine.travel(TODAY, tick=False)
def test_a_north_branch_cat_needs_no_license_and_says_why(pages, north_branch):
    _owner, (cat,) = household(north_branch, dogs=0, cats=1)
    page = pages.get(reverse("licensing:animal_detail", args=[cat.pk])).content.decode()
    assert "North Branch does not license cats." in page and "North Branch Sec. 6-60" in page
    assert "0 of 3 adult dogs, 1 of 3 adult cats" in page


@time_machine.travel(TODAY, tick=False)
def test_the_owner_page_stays_bounded_with_many_animals(
    pages, north_branch, django_assert_max_num_queries
):
    owner, _animals = household(north_branch, dogs=4, cats=3)  # over: the kennel lookup too
    url = reverse("licensing:owner_detail", args=[owner.pk])
    with django_assert_max_num_queries(30) as before:
        pages.get(url)
    for _ in range(40):
        AnimalFactory(
            jurisdiction=north_branch,
            owner=owner,
            premises=_animals[0].premises,
            species=Species.DOG,
            date_of_birth=ADULT,
        )
    with django_assert_max_num_queries(len(before.captured_queries)):
        page = pages.get(url).content.decode()
    assert "<strong>44 of 3 adult dogs</strong>" in page
