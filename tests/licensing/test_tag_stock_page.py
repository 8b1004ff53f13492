"""Tag stock entered through its page (LIC-08, REC-02): the clerk types a range of numbered
tags as received from the vendor; the tags exist, one per number; a bad or overlapping
range is a message next to the field, and nothing is entered."""

import re

import pytest
from django.urls import reverse

from licensing.models import Tag, TagStatus, TagStock
from ordinance.models import Event

URL = "licensing:tag_stock"


def entry(**fields):
    return {
        "year": "2027",
        "first_number": "1",
        "last_number": "25",
        "received_on": "2026-11-03",
        "vendor": "Minnesota Tag & Stamp",
    } | fields


def field_error(body: str, field: str) -> str:
    """The error text crispy renders under ``field`` (its invalid-feedback block)."""
    found = re.search(
        rf'<div id="id_{field}_error" class="invalid-feedback">(.*?)</div>', body, re.S
    )
    return re.sub(r"<[^>]+>", "", found[1]).strip() if found else ""


def test_the_clerk_enters_a_range_and_the_tags_exist(client_as, clerk, north_branch):
    client = client_as(clerk)
    response = client.post(reverse(URL), entry(first_number="101", last_number="125"))
    assert response.status_code == 302 and response["Location"] == reverse(URL)
    stock = TagStock.objects.get()
    assert (
        stock.jurisdiction,
        stock.year,
        stock.first_number,
        stock.last_number,
        stock.recorded_by,
    ) == (north_branch, 2027, 101, 125, clerk)
    tags = Tag.objects.filter(stock=stock)
    assert sorted(tags.values_list("number", flat=True)) == list(range(101, 126))
    assert set(tags.values_list("status", "year", "jurisdiction")) == {
        (TagStatus.AVAILABLE, 2027, north_branch.pk)
    }
    assert Event.objects.filter(action="licensing.tag_stock.received").count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "2027 tags 101–125 entered." in page
    assert re.search(
        r"<td>2027</td><td>101–125</td><td>Nov 3, 2026</td>"
        r"<td>Minnesota Tag &amp; Stamp</td><td class=\"text-end\">25</td>",
        page,
    )


def test_the_same_numbers_of_another_year_or_city_are_new_stock(client_as, clerk, glencoe_clerk):
    """Numbers are unique per city and year (LIC-08): 2027's 1-25 and 2028's 1-25 both."""
    assert client_as(clerk).post(reverse(URL), entry()).status_code == 302
    assert client_as(clerk).post(reverse(URL), entry(year="2028")).status_code == 302
    assert client_as(glencoe_clerk).post(reverse(URL), entry()).status_code == 302
    assert Tag.objects.count() == 75


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"first_number": "30", "last_number": "29"}, "last_number", "must not be below"),
        ({"first_number": "0"}, "first_number", "greater than or equal to 1"),
        ({"first_number": "-5"}, "first_number", "greater than or equal to 1"),
        ({"last_number": "ten"}, "last_number", "Enter a whole number"),
        ({"year": "27"}, "year", "greater than or equal to 2000"),
        (
            {"first_number": "2147483647", "last_number": "2147483648"},
            "last_number",
            "less than or equal to 999999999",
        ),  # was a database error (500)
        ({"first_number": "1", "last_number": "20001"}, "first_number", "at most 20000"),
    ],
)
def test_a_bad_range_is_a_message_next_to_the_field(client_as, clerk, fields, field, message):
    response = client_as(clerk).post(reverse(URL), entry(**fields))
    assert response.status_code == 200
    assert message in field_error(response.content.decode(), field), field
    assert not TagStock.objects.exists() and not Tag.objects.exists()


@pytest.mark.parametrize(
    "first, last, clash", [("20", "30", 20), ("1", "5", 1), ("25", "25", 25), ("10", "12", 10)]
)
def test_an_overlapping_range_is_refused_next_to_the_field(client_as, clerk, first, last, clash):
    client = client_as(clerk)
    assert client.post(reverse(URL), entry(first_number="1", last_number="25")).status_code == 302
    response = client.post(reverse(URL), entry(first_number=first, last_number=last))
    assert response.status_code == 200
    assert (
        field_error(response.content.decode(), "first_number")
        == f"Tag {clash} of 2027 is already in stock. (North Branch Sec. 6-63)"
    )
    assert TagStock.objects.count() == 1 and Tag.objects.count() == 25
    assert (
        client.post(reverse(URL), entry(first_number="26", last_number="30")).status_code == 302
    )  # the next range up is fine


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_only_counter_staff_enter_tag_stock(client_as, request, persona):
    client = client_as(request.getfixturevalue(persona))
    assert client.post(reverse(URL), entry()).status_code == 403
    assert not Tag.objects.exists()
