"""The found-animals page (IMP-05, REC-04; NB Sec. 6-68; GL Subd. 14):
public, per city and for all cities, the claim-by answer of the posted notice, no person,
photos public only while the animal is on the page, cached and invalidated on change."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.formats import date_format, time_format

from impound.models import CaseStatus
from impound.services.notices import claim_by
from tests.upload_files import png_bytes

from .factories import make_pound
from .helpers import at, owned_dog, take_in

pytestmark = pytest.mark.django_db
CLOCK = "2026-12-15T10:00"
GROUND = {"north-branch": "unlicensed_at_large", "glencoe": "dog_at_large"}
# What must never reach a public page: the finder, the owner, the microchip.
FINDER, FINDER_ADDRESS = "Pat Finder", "12 Elm St"


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def _in(city, pound, officer, when=None, **extra):
    extra.setdefault("found_area", "300 block of Main St")
    return take_in(city, pound, officer, when or at(2026, 12, 14, 9), GROUND[city.slug], **extra)


def _html(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.clock(CLOCK)
def test_anyone_sees_the_animals_in_the_pound_with_the_claim_by_answer(
    north_branch, glencoe, officer, pound
):
    held = _in(north_branch, pound, officer, breed="Beagle", color="Tricolor")
    blank = _in(north_branch, pound, officer, found_area="", breed="Husky", color="Gray")
    gone = _in(north_branch, pound, officer, breed="Poodle", color="White")
    gone.close(
        CaseStatus.REDEEMED,
        on=date(2026, 12, 15),
        at=at(2026, 12, 15, 9),
        actor=officer,
        note="Owner came",
    )
    other = _in(glencoe, pound, officer, breed="Corgi", color="Red", found_area="Elm Ave")

    html = _html(Client(), "impound:found_city", north_branch.slug)
    assert "Tricolor Beagle" in html and "Gray Husky" in html
    assert "Poodle" not in html  # redeemed: off the page
    assert "Corgi" not in html  # Glencoe's animal is on Glencoe's page
    assert "300 block of Main St" in html
    # Left blank: the city alone, nothing derived from where it was seized or who found it.
    assert f"{north_branch.name}, Dec 14, 2026" in html
    deadline = claim_by(held)
    assert deadline["date"] == held.hold_ends_on
    expected = "Claim by {} on {}".format(
        time_format(deadline["time"], "g:i a"), date_format(deadline["date"], "D, M j, Y")
    )
    assert expected in html
    assert deadline["citation"] in html
    assert blank.number in html
    assert "County Animal Pound" in html and "400 Kennel Road" in html and "Monday" in html

    everywhere = _html(Client(), "impound:found_all")
    assert "Tricolor Beagle" in everywhere and "Red Corgi" in everywhere
    assert "Poodle" not in everywhere
    assert other.number in everywhere


@pytest.mark.clock(CLOCK)
def test_no_person_appears_on_the_found_page(north_branch, officer, pound):
    animal = owned_dog(
        north_branch,
        microchip="985141000123456",
        name="Quillon",
        owner_fields={"first_name": "Ingeborg", "last_name": "Quistgaard"},
    )
    owner = animal.owner
    case = _in(
        north_branch,
        pound,
        officer,
        animal=animal,
        seized_where="In the yard of 12 Elm St",
        microchip="985141000123456",
    )
    html = _html(Client(), "impound:found_city", north_branch.slug)
    assert case.number in html
    for private in (
        FINDER,
        FINDER_ADDRESS,
        owner.name,
        owner.last_name,
        owner.address_line,
        "985141000123456",
        animal.name,
        "In the yard",
    ):
        assert private and private not in html, private


@pytest.mark.clock(CLOCK)
def test_an_available_animal_shows_that_its_hold_ended(north_branch, officer, pound):
    case = _in(north_branch, pound, officer, when=at(2026, 11, 30, 9))
    case.make_available(on=date(2026, 12, 8), at=at(2026, 12, 8, 0, 5))
    html = _html(Client(), "impound:found_city", north_branch.slug)
    assert case.number in html
    assert "The hold for redemption ended" in html
    assert case.hold_citation in html


@pytest.mark.clock(CLOCK)
def test_the_photo_is_public_only_while_the_animal_is_on_the_page(north_branch, officer, pound):
    photo = SimpleUploadedFile("dog.png", png_bytes(), content_type="image/png")
    case = _in(north_branch, pound, officer, photo=photo)
    bare = _in(north_branch, pound, officer)
    anonymous = Client()
    html = _html(anonymous, "impound:found_city", north_branch.slug)
    url = reverse("impound:found_photo", args=[case.pk])
    assert url in html
    response = anonymous.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert anonymous.get(reverse("impound:found_photo", args=[bare.pk])).status_code == 404
    case.close(
        CaseStatus.ADOPTED,
        on=date(2026, 12, 15),
        at=at(2026, 12, 15, 9),
        actor=officer,
        note="Adopted",
        to_name="Ada Adopter",
        to_address="9 Oak St",
    )
    assert anonymous.get(url).status_code == 404
    assert anonymous.get(reverse("impound:found_photo", args=[999999])).status_code == 404


@pytest.mark.clock(CLOCK)
def test_the_page_is_cached_and_forgets_on_any_change(north_branch, officer, pound):
    anonymous = Client()
    case = _in(north_branch, pound, officer, breed="Beagle")
    url = reverse("impound:found_city", args=[north_branch.slug])
    assert "Beagle" in anonymous.get(url).content.decode()
    with CaptureQueriesContext(connection) as cached:
        anonymous.get(url)
    # Only the city: the animals and pounds come from the cache.
    assert not [q for q in cached.captured_queries if "impound_impoundcase" in q["sql"]]
    case.breed = "Basset"
    case.save(update_fields=["breed"])
    assert "Basset" in anonymous.get(url).content.decode()
    case.close(
        CaseStatus.REDEEMED,
        on=date(2026, 12, 15),
        at=at(2026, 12, 15, 9),
        actor=officer,
        note="Owner came",
    )
    assert "Basset" not in anonymous.get(url).content.decode()
    _in(north_branch, pound, officer, breed="Whippet")
    assert "Whippet" in anonymous.get(url).content.decode()
    hours = pound.hours.first()
    hours.opens = hours.opens.replace(hour=7)
    hours.save()
    assert "7:00 AM" in anonymous.get(url).content.decode()


@pytest.mark.clock(CLOCK)
def test_the_pages_make_few_queries_whatever_the_number_of_animals(
    north_branch, glencoe, officer, pound, django_assert_max_num_queries
):
    for i in range(3):
        _in(north_branch if i % 2 else glencoe, pound, officer)
    anonymous = Client()
    urls = [
        reverse("impound:found_city", args=[north_branch.slug]),
        reverse("impound:found_all"),
    ]

    def count():
        out = []
        for url in urls:
            from django.core.cache import cache

            cache.clear()  # not cached: the worst case
            with CaptureQueriesContext(connection) as ctx:
                assert anonymous.get(url).status_code == 200
            out.append(len(ctx.captured_queries))
        return out

    few = count()
    for i in range(30):
        _in(north_branch if i % 2 else glencoe, pound, officer)
    many = count()
    assert few == many
    assert max(many) <= 10


def test_an_unknown_city_is_404(cities):
    assert Client().get(reverse("impound:found_city", args=["nowhere"])).status_code == 404


def test_every_page_links_the_found_animals_for_someone_who_lost_a_pet(client, north_branch):
    """The login page (the site's door) and every page under the base layout link the
    found animals page, with no sign-in."""
    page = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{reverse("impound:found_all")}"' in page
    assert client.get(reverse("impound:found_all")).status_code == 200
