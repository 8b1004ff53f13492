"""Dog license transfer page (LIC-12): the new owner is found by search or registered on
the spot, never chosen from a list of every owner in the city."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import Owner
from licensing.services.licenses import license_issue
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

TODAY = "2026-01-15 10:00 -06:00"


@pytest.fixture
def license(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15), method="cash"
    ).license


@time_machine.travel(TODAY, tick=False)
def test_the_page_offers_only_search_results(
    client_as, clerk, license, north_branch, django_assert_max_num_queries
):
    for i in range(200):
        OwnerFactory(jurisdiction=north_branch, last_name=f"Bulk{i:03d}")
    target = OwnerFactory(jurisdiction=north_branch, last_name="Zebrowski")
    url = reverse("licensing:license_transfer", args=[license.pk])
    client = client_as(clerk)
    with django_assert_max_num_queries(25):
        page = client.get(url).content.decode()
    assert "Bulk001" not in page and 'name="new_owner"' not in page
    with django_assert_max_num_queries(25):
        page = client.get(url, {"q": "zebrow"}).content.decode()
    assert f'value="{target.pk}"' in page and "Bulk001" not in page
    assert 'hx-get="' in page and 'hx-select="#owner-choices"' in page
    response = client.post(
        url, {"new_owner": target.pk, "method": "cash", "amount_tendered": "100.00"}
    )
    assert response.status_code == 302
    license.refresh_from_db()
    assert license.owner == target


@time_machine.travel(TODAY, tick=False)
def test_the_current_owner_is_not_offered(client_as, clerk, license):
    url = reverse("licensing:license_transfer", args=[license.pk])
    page = client_as(clerk).get(url, {"q": license.owner.last_name}).content.decode()
    assert f'value="{license.owner.pk}"' not in page


@time_machine.travel(TODAY, tick=False)
def test_an_owner_registered_on_the_spot_comes_back_picked(client_as, clerk, license):
    url = reverse("licensing:license_transfer", args=[license.pk])
    client = client_as(clerk)
    create = reverse("licensing:owner_create") + f"?next={url}"
    response = client.post(
        create,
        {
            "kind": "person",
            "first_name": "Nell",
            "last_name": "Newcomer",
            "address_line": "9 Birch Ave",
            "city": "North Branch",
            "state": "MN",
            "postal_code": "55056",
            "is_resident": "on",
        },
    )
    owner = Owner.objects.get(last_name="Newcomer")
    assert response.status_code == 302 and response["Location"] == f"{url}?pick={owner.pk}"
    page = client.get(response["Location"]).content.decode()
    assert f'value="{owner.pk}"' in page and "checked" in page


def test_an_outside_next_is_ignored(client_as, clerk, north_branch):
    response = client_as(clerk).post(
        reverse("licensing:owner_create") + "?next=//evil.example/x",
        {
            "kind": "person",
            "first_name": "Ed",
            "last_name": "Elsewhere",
            "address_line": "1 Oak St",
            "city": "North Branch",
            "state": "MN",
            "postal_code": "55056",
        },
    )
    owner = Owner.objects.get(last_name="Elsewhere")
    assert response["Location"] == owner.get_absolute_url()


@time_machine.travel(TODAY, tick=False)
def test_an_owner_of_another_city_cannot_be_posted(client_as, clerk, license, glencoe):
    other = OwnerFactory(jurisdiction=glencoe)
    url = reverse("licensing:license_transfer", args=[license.pk])
    response = client_as(clerk).post(
        url, {"new_owner": other.pk, "method": "cash", "amount_tendered": "100.00"}
    )
    assert response.status_code == 200
    license.refresh_from_db()
    assert license.owner != other
