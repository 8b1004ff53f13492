"""registry_search and the search page: what matches, city scoping, bounded queries."""

from datetime import date

import pytest
from django.urls import reverse

from licensing.models import Tag, TagStatus
from licensing.selectors import registry_search
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import LicenseFactory, TagStockFactory


@pytest.fixture
def registry(north_branch, glencoe):
    ingrid = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ingrid",
        last_name="Halvorson",
        address_line="6125 Maple Street",
        phone="(651) 555-0147",
    )
    biscuit = AnimalFactory(
        jurisdiction=north_branch,
        owner=ingrid,
        name="Biscuit",
        microchip="985112003344556",
        breed="Beagle",
    )
    RabiesVaccinationFactory(animal=biscuit, rabies_tag_number="SRV-2025-00412")
    # Every searchable field fixed: a factory sequence ("177 Main Street") would match a
    # search for tag 77 or a phone's digits after enough owners in the run.
    shelter = OwnerFactory(
        jurisdiction=north_branch,
        kind="organization",
        first_name="",
        last_name="",
        organization_name="Chisago Pet Rescue",
        phone="",
        address_line="2 Elm Street",
    )
    gerhard = OwnerFactory(
        jurisdiction=glencoe,
        first_name="Gerhard",
        last_name="Halvorsen",
        postal_code="55336",
        phone="320-555-0147",
    )
    fritz = AnimalFactory(
        jurisdiction=glencoe, owner=gerhard, name="Fritz", microchip="985112003344999"
    )
    return {
        "ingrid": ingrid,
        "biscuit": biscuit,
        "shelter": shelter,
        "gerhard": gerhard,
        "fritz": fritz,
    }


def owners_found(user, query):
    return [hit.owner for hit in registry_search(user=user, query=query)]


@pytest.mark.parametrize(
    "query",
    [
        "halv",
        "Ingrid Halvorson",
        "ingrid maple",
        "6125 maple",
        "651 555 0147",
        "6515550147",
        "bisc",
        "985112003344556",
        "98511200334",
        "srv-2025-00412",
    ],
)
def test_a_clerk_finds_the_owner_by(clerk, registry, query):
    assert owners_found(clerk, query) == [registry["ingrid"]]


def test_it_finds_an_organization_by_part_of_its_name(clerk, registry):
    assert owners_found(clerk, "pet resc") == [registry["shelter"]]


def test_the_animal_that_matched_is_marked(clerk, registry):
    [hit] = registry_search(user=clerk, query="98511200334")
    assert hit.matched_animal_ids == {registry["biscuit"].pk}
    assert [a.name for a in hit.animals] == ["Biscuit"]


def test_an_owner_match_does_not_mark_every_animal(clerk, registry):
    [hit] = registry_search(user=clerk, query="Halvorson")
    assert hit.matched_animal_ids == set()


def test_owners_whose_surname_begins_with_the_word_come_first(
    clerk, officer, north_branch, glencoe
):
    """The page is in name order, but owners whose last name begins with the first word
    come before those who only hold it elsewhere (a surname's owners sit together, and
    a clerk typing one means them)."""

    def owner(city, first, last, address):
        return OwnerFactory(
            jurisdiction=city, first_name=first, last_name=last, address_line=address
        )

    abbott = owner(north_branch, "John", "Abbott", "1 Elm Street")
    johnson = owner(north_branch, "Zed", "Johnson", "2 Elm Street")
    avenue = owner(north_branch, "Ada", "Berg", "4 Johnson Avenue")
    owner(north_branch, "Ada", "Lind", "5 Elm Street")  # no John anywhere
    johns = owner(glencoe, "Amy", "Johns", "3 Elm Street")
    assert owners_found(clerk, "john") == [johnson, abbott, avenue]
    assert owners_found(clerk, "JOHN abbott") == [abbott]
    assert owners_found(clerk, "abbott john") == [abbott]
    # A page the surnames fill reads no other match; one they leave room in does.
    for limit, expected in ((1, [johnson]), (2, [johnson, abbott])):
        hits = registry_search(user=clerk, query="john", limit=limit)
        assert [hit.owner for hit in hits] == expected, limit
    # Two cities: the surnames of both in name order, then the other matches.
    assert owners_found(officer, "john") == [johns, johnson, abbott, avenue]


def test_an_owner_with_two_animals_of_the_name_is_one_hit_with_both_marked(clerk, registry):
    ingrid = registry["ingrid"]
    junior = AnimalFactory(
        jurisdiction=ingrid.jurisdiction,
        owner=ingrid,
        premises=registry["biscuit"].premises,
        name="Biscuit Jr",
    )
    [hit] = registry_search(user=clerk, query="biscuit")
    assert hit.owner == ingrid
    assert hit.matched_animal_ids == {registry["biscuit"].pk, junior.pk}


def test_it_only_searches_the_cities_the_user_serves(clerk, glencoe_clerk, officer, registry):
    assert owners_found(clerk, "5550147") == [registry["ingrid"]]
    assert owners_found(glencoe_clerk, "5550147") == [registry["gerhard"]]
    assert set(owners_found(officer, "5550147")) == {registry["ingrid"], registry["gerhard"]}
    assert owners_found(clerk, "Fritz") == []


def test_residents_and_short_queries_get_nothing(resident, clerk, registry):
    assert registry_search(user=resident, query="Halvorson") == []
    assert registry_search(user=clerk, query="h") == []
    assert registry_search(user=clerk, query="   ") == []


@pytest.mark.parametrize(
    "query",
    [
        "%",
        "_",
        "'; drop table",
        "2026-99999999999999",
        "(((",
        "985112003344556985112003344556",
        "\x00",
        "ab\x00cd",
    ],
)
def test_odd_input_never_fails(client_as, clerk, registry, query):
    assert client_as(clerk).get(reverse("licensing:search"), {"q": query}).status_code == 200


def test_the_page_works_without_javascript_and_shows_no_city_column_for_one_city(
    client_as, clerk, registry
):
    page = client_as(clerk).get(reverse("licensing:search"), {"q": "halv"}).content.decode()
    assert "<html" in page and 'aria-live="polite"' in page and "Ingrid Halvorson" in page
    assert "Biscuit" in page and "Beagle" in page
    assert ">City<" not in page


def test_htmx_gets_only_the_results_with_a_city_column_for_two_cities(client_as, officer, registry):
    response = client_as(officer).get(
        reverse("licensing:search"), {"q": "5550147"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert "<html" not in page and ">City<" in page and "Glencoe" in page
    assert "HX-Request" in response["Vary"]


def test_no_match_says_so(client_as, clerk, registry):
    page = client_as(clerk).get(reverse("licensing:search"), {"q": "zzzz"}).content.decode()
    assert "No owner or animal matches" in page


def test_a_license_tag_number_finds_the_dog_wearing_it(
    clerk, glencoe_clerk, registry, north_branch
):
    """A lost dog's metal tag finds its owner (LIC-09, REC-02): "2026-77" as stamped, or the
    bare number; a number never issued, another year's tag or another city finds nothing."""
    stock = TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, first_number=70, last_number=80
    )
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk, animal=registry["biscuit"])
    Tag.objects.filter(stock=stock, number=77).update(
        status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
    )
    for query in ("2026-77", "2026 77", "77"):
        [hit] = registry_search(user=clerk, query=query)
        assert hit.owner == registry["ingrid"], query
        assert hit.matched_animal_ids == {registry["biscuit"].pk}, query
    assert owners_found(clerk, "2026-78") == []  # in stock, never issued
    assert owners_found(clerk, "2025-77") == []  # another year's tag 77
    assert owners_found(glencoe_clerk, "2026-77") == []  # North Branch's tag


def test_search_makes_a_bounded_number_of_queries(
    client_as, officer, north_branch, django_assert_max_num_queries
):
    for n in range(120):
        owner = OwnerFactory(
            jurisdiction=north_branch, last_name=f"Olson{n}", address_line=f"{n} Oak Street"
        )
        premises = PremisesFactory(jurisdiction=north_branch, address_line=owner.address_line)
        for k in range(3):
            AnimalFactory(
                jurisdiction=north_branch,
                owner=owner,
                premises=premises,
                name=f"Rex{n}-{k}",
                microchip=f"985000000{n:03d}{k:03d}",
            )
    client = client_as(officer)
    for query in ("olson", "rex", "985000000", "651 555"):
        with django_assert_max_num_queries(12):
            page = client.get(reverse("licensing:search"), {"q": query})
        assert page.status_code == 200 and "owners found" in page.content.decode()
