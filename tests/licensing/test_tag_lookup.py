"""Lost-dog tag lookup (LIC-09, NB Sec. 6-63): tag + year -> license, dog and owner."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import Tag, TagStatus
from licensing.selectors import registry_search
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

URL = "licensing:tag_lookup"


@pytest.fixture
def tagged(north_branch, clerk):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=20)
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk)
    Tag.objects.filter(stock=stock, number=7).update(
        status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
    )
    return license


def test_it_finds_the_dog_and_owner_with_the_year_defaulting_to_this_year(
    tagged, client_as, officer
):
    with time_machine.travel(date(2026, 5, 1), tick=False):
        body = client_as(officer).get(reverse(URL), {"number": "7"}).content.decode()
    owner = tagged.owner
    assert tagged.animal.name in body and owner.name in body and owner.phone in body
    assert owner.address_line in body and tagged.number in body


def test_a_lost_tag_says_so(tagged, client_as, clerk):
    Tag.objects.filter(number=7).update(status=TagStatus.LOST, status_changed_on=date(2026, 4, 2))
    body = client_as(clerk).get(reverse(URL), {"number": "7", "year": "2026"}).content.decode()
    assert "reported lost" in body and "Apr 2, 2026" in body


def test_no_license_means_presumed_unlicensed_with_the_section(tagged, client_as, clerk):
    body = client_as(clerk).get(reverse(URL), {"number": "8", "year": "2026"}).content.decode()
    assert "presumed unlicensed" in body and "North Branch Sec. 6-63" in body
    body = client_as(clerk).get(reverse(URL), {"number": "7", "year": "2019"}).content.decode()
    assert "presumed unlicensed" in body


def test_another_citys_tag_is_not_shown(tagged, client_as, glencoe_clerk):
    body = client_as(glencoe_clerk).get(reverse(URL), {"number": "7", "year": "2026"})
    assert tagged.owner.name not in body.content.decode()


def test_bad_input_is_a_message(client_as, clerk):
    response = client_as(clerk).get(reverse(URL), {"number": "seven", "year": "26"})
    assert response.status_code == 400 and b"Enter a whole number" in response.content


def test_residents_cannot_look_up_tags(client_as, resident):
    assert client_as(resident).get(reverse(URL)).status_code == 403


def test_the_registry_search_matches_license_tag_numbers(tagged, clerk):
    hits = registry_search(user=clerk, query="2026-7")
    assert [hit.owner.pk for hit in hits] == [tagged.owner_id]
    assert tagged.animal_id in hits[0].matched_animal_ids
    assert registry_search(user=clerk, query="2026-8") == []  # in stock, never issued
