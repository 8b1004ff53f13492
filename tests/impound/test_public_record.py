"""The public impound record, page and CSV (IMP-06, REC-03, MN-03,
Minn. Stat. 346.47 subd. 2): at least the retention period, street level, no person."""

import csv
import io
from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from impound.models import CaseStatus

from .factories import make_pound
from .helpers import at, owned_dog, take_in

pytestmark = pytest.mark.django_db
CLOCK = "2026-12-15T10:00"  # six months back: June 15, 2026 (the profile's retention)
GROUND = "unlicensed_at_large"


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def _close(case, status, on, officer, **extra):
    case.close(
        status, on=on, at=at(on.year, on.month, on.day, 12), actor=officer, note="done", **extra
    )


@pytest.fixture
def record(north_branch, officer, pound):
    """Cases across the year, one with a known owner, one adopted to a named person."""
    animal = owned_dog(
        north_branch,
        microchip="985141000123456",
        owner_fields={"first_name": "Ingeborg", "last_name": "Quistgaard"},
    )
    cases = {
        "gone": take_in(
            north_branch,
            pound,
            officer,
            at(2026, 4, 2, 9),
            GROUND,
            found_area="Gone Lane",
            breed="Gone breed",
        ),
        "closed_late": take_in(
            north_branch,
            pound,
            officer,
            at(2026, 5, 20, 9),
            GROUND,
            found_area="Late Close Rd",
            breed="Late breed",
        ),
        "june": take_in(
            north_branch,
            pound,
            officer,
            at(2026, 6, 16, 9),
            GROUND,
            found_area="June Ave",
            breed="June breed",
        ),
        "owned": take_in(
            north_branch,
            pound,
            officer,
            at(2026, 12, 10, 9),
            GROUND,
            animal=animal,
            found_area="",
            seized_where="Behind 77 Birch Ct",
            microchip="985141000123456",
            breed="Owned breed",
        ),
    }
    _close(cases["gone"], CaseStatus.REDEEMED, date(2026, 4, 9), officer)
    _close(
        cases["closed_late"],
        CaseStatus.ADOPTED,
        date(2026, 7, 1),
        officer,
        to_name="Ada Adopter",
        to_address="9 Oak St",
    )
    _close(
        cases["june"],
        CaseStatus.TRANSFERRED,
        date(2026, 6, 30),
        officer,
        to_name="Rescue Inc.",
        to_address="1 Shelter Way",
    )
    return cases, animal.owner


PRIVATE = (
    "Pat Finder",
    "12 Elm St",
    "985141000123456",
    "Ada Adopter",
    "9 Oak St",
    "Rescue Inc.",
    "1 Shelter Way",
    "77 Birch Ct",
)


@pytest.mark.clock(CLOCK)
def test_the_csv_covers_the_retention_period_and_nothing_personal(record, north_branch):
    cases, owner = record
    response = Client().get(reverse("impound:public_records_csv", args=[north_branch.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    by_case = {r["case"]: r for r in rows}
    # Placed on or after June 15 or closed on or after it: in; placed and closed before: out.
    assert set(by_case) == {cases[k].number for k in ("closed_late", "june", "owned")}
    assert by_case[cases["june"].number]["where_seized"] == "June Ave"
    assert by_case[cases["june"].number]["outcome"] == "Transferred"
    assert by_case[cases["june"].number]["date_seized"] == "2026-06-16"
    assert by_case[cases["closed_late"].number]["closed_on"] == "2026-07-01"
    assert by_case[cases["owned"].number]["where_seized"] == north_branch.name  # blank: city
    assert by_case[cases["owned"].number]["breed"] == "Owned breed"
    for private in (*PRIVATE, owner.name, owner.last_name, owner.address_line):
        assert private not in text, private
    assert "Gone Lane" not in text  # older records stay in the system, off the public list


@pytest.mark.clock(CLOCK)
def test_the_page_shows_the_same_record_and_nothing_personal(record, north_branch):
    cases, owner = record
    html = Client().get(reverse("impound:public_records", args=[north_branch.slug])).content
    html = html.decode()
    for key in ("closed_late", "june", "owned"):
        assert cases[key].number in html
    assert cases["gone"].number not in html
    assert "June Ave" in html and "Late Close Rd" in html
    assert reverse("impound:public_records_csv", args=[north_branch.slug]) in html
    for private in (*PRIVATE, owner.name, owner.last_name, owner.address_line):
        assert private not in html, private


@pytest.mark.clock(CLOCK)
def test_the_csv_makes_few_queries_whatever_the_number_of_cases(
    north_branch, officer, pound, django_assert_max_num_queries
):
    url = reverse("impound:public_records_csv", args=[north_branch.slug])
    for i in range(40):
        take_in(
            north_branch, pound, officer, at(2026, 11, 1 + i % 28, 9), GROUND, found_area=f"Lot {i}"
        )
    anonymous = Client()
    anonymous.get(url)
    with django_assert_max_num_queries(10):
        rows = list(csv.reader(io.StringIO(anonymous.get(url).content.decode())))
    assert len(rows) == 41


def test_an_unknown_city_has_no_csv(cities):
    assert Client().get(reverse("impound:public_records_csv", args=["nowhere"])).status_code == 404
