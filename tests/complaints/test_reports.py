"""Complaint and citation reports: numbers against hand-built data,
the CSV, the chart, the date range, the user's cities, the roles and the query budget."""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from complaints import reports
from tests.citations.helpers import adjudicate, cite
from tests.complaints.helpers import at, take_complaint
from tests.impound.helpers import owned_dog

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-20T12:00")]

A = "12 North Elm Street"
B = "40 Main Street"
RANGE = {"start": "2026-01-01", "end": "2026-06-30"}


@pytest.fixture
def data(north_branch, glencoe, clerk, officer):
    take = take_complaint
    take(north_branch, clerk, kind="barking", when=at(2026, 1, 5, 21), address_line=A)
    take(north_branch, clerk, kind="barking", when=at(2026, 1, 20, 22), address_line="12 N Elm St")
    take(north_branch, clerk, kind="litter", when=at(2026, 2, 3, 9), address_line=A)
    take(north_branch, clerk, kind="running_at_large", when=at(2026, 2, 9, 9), address_line=B)
    # Outside the range: counted nowhere (and B is not a repeat address in the range).
    take(north_branch, clerk, kind="running_at_large", when=at(2025, 12, 31, 23), address_line=B)
    # January 31 at 23:30 in Minnesota is January, whatever the UTC date.
    take(north_branch, clerk, kind="litter", when=at(2026, 1, 31, 23, 30), address_line="9 Oak")
    # Glencoe's: only a user serving Glencoe sees them.
    take(glencoe, officer, kind="barking", when=at(2026, 1, 7, 21), address_line=A)
    take(glencoe, officer, kind="barking", when=at(2026, 1, 8, 21), address_line=A)
    dog = owned_dog(north_branch)
    one = cite(north_branch, officer, dog, when=at(2026, 3, 2, 10))
    cite(north_branch, officer, dog, when=at(2026, 3, 3, 10))
    cite(
        north_branch,
        officer,
        dog,
        when=at(2026, 3, 4, 10),
        charge_class="misdemeanor",
        class_reason="Third time this month.",
    )
    adjudicate(one, officer, when=at(2026, 4, 1, 10))
    return dog


def test_complaints_by_kind_and_month(data, north_branch):
    rows = reports.complaints_by_kind_month(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=date(2026, 6, 30)
    )
    assert [
        (r["month"], r["barking"], r["litter"], r["running_at_large"], r["total"]) for r in rows
    ] == [
        ("2026-01", 2, 1, 0, 3),
        ("2026-02", 0, 1, 1, 2),
    ]


def test_repeat_addresses_match_the_normalized_address(data, north_branch, glencoe):
    rows = reports.repeat_addresses(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=date(2026, 6, 30)
    )
    assert [(r["complaints"], r["kinds"]) for r in rows] == [(3, 2)]
    assert rows[0]["first"] == at(2026, 1, 5, 21) and rows[0]["last"] == at(2026, 2, 3, 9)
    both = reports.repeat_addresses(
        jurisdiction_ids=[north_branch.pk, glencoe.pk],
        start=date(2026, 1, 1),
        end=date(2026, 6, 30),
    )
    assert sorted((r["city"], r["complaints"]) for r in both) == [
        ("Glencoe", 2),
        ("North Branch", 3),
    ]


def test_citations_by_status_and_class(data, north_branch):
    rows = reports.citations_by_status_class(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=date(2026, 6, 30)
    )
    assert [(r["status"], r["petty_misdemeanor"], r["misdemeanor"], r["total"]) for r in rows] == [
        ("issued", 1, 1, 2),
        ("adjudicated", 1, 0, 1),
    ]
    assert (
        reports.citations_by_status_class(
            jurisdiction_ids=[north_branch.pk], start=date(2026, 4, 1), end=date(2026, 6, 30)
        )
        == []
    )


def _csv(response):
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_the_csv_has_the_pages_numbers(client_as, clerk, data):
    client = client_as(clerk)
    rows = _csv(client.get(reverse("complaints:report_kinds"), {**RANGE, "format": "csv"}))
    assert rows[0] == ["month", *reports.KIND_COLUMNS, "total"]  # one city: no city column
    header = rows[0]
    assert [(r[0], r[header.index("barking")], r[-1]) for r in rows[1:]] == [
        ("2026-01", "2", "3"),
        ("2026-02", "0", "2"),
    ]
    repeats = _csv(client.get(reverse("complaints:report_repeats"), {**RANGE, "format": "csv"}))
    assert repeats == [
        ["address", "complaints", "kinds", "first", "last"],
        [A, "3", "2", "2026-01-05", "2026-02-03"],
    ]
    cites = _csv(client.get(reverse("complaints:report_citations"), {**RANGE, "format": "csv"}))
    assert cites == [
        ["status", "petty_misdemeanor", "misdemeanor", "total"],
        ["issued", "1", "1", "2"],
        ["adjudicated", "1", "0", "1"],
    ]


def test_a_user_of_both_cities_gets_a_city_column(client_as, officer, data):
    rows = _csv(
        client_as(officer).get(reverse("complaints:report_repeats"), {**RANGE, "format": "csv"})
    )
    assert rows[0][0] == "city"
    assert sorted(r[0] for r in rows[1:]) == ["Glencoe", "North Branch"]


def test_the_glencoe_clerk_sees_only_glencoe(client_as, glencoe_clerk, data):
    client = client_as(glencoe_clerk)
    rows = _csv(client.get(reverse("complaints:report_kinds"), {**RANGE, "format": "csv"}))
    header = rows[0]
    assert [(r[0], r[header.index("barking")]) for r in rows[1:]] == [("2026-01", "2")]
    cites = _csv(client.get(reverse("complaints:report_citations"), {**RANGE, "format": "csv"}))
    assert cites[1:] == []


@pytest.mark.parametrize("name", ["report_kinds", "report_repeats", "report_citations"])
def test_each_page_has_its_chart_and_table(name, client_as, clerk, data):
    response = client_as(clerk).get(reverse(f"complaints:{name}"), RANGE)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in body and 'role="img"' in body and "<table" in body
    assert "style=" not in body.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_the_repeat_address_links_its_premises_case_file(client_as, clerk, north_branch, data):
    from licensing.models import Premises

    premises = Premises.objects.create(
        jurisdiction=north_branch, address_line=A, city="North Branch", postal_code="55056"
    )
    take_complaint(north_branch, clerk, kind="litter", when=at(2026, 3, 1, 9), address_line=A)
    body = client_as(clerk).get(reverse("complaints:report_repeats"), RANGE).content.decode()
    assert reverse("complaints:premises_casefile", args=[premises.pk]) in body


def test_a_bad_range_is_refused(client_as, clerk):
    response = client_as(clerk).get(
        reverse("complaints:report_kinds"), {"start": "2026-06-30", "end": "2026-01-01"}
    )
    assert response.status_code == 400


@pytest.mark.parametrize("name", ["report_kinds", "report_repeats", "report_citations"])
def test_residents_are_refused(name, client_as, resident):
    assert client_as(resident).get(reverse(f"complaints:{name}")).status_code == 403


def test_the_reports_page_lists_them(client_as, clerk):
    body = client_as(clerk).get(reverse("licensing:reports")).content.decode()
    for name in ("report_kinds", "report_repeats", "report_citations"):
        assert reverse(f"complaints:{name}") in body


def test_the_query_count_does_not_grow_with_the_data(
    client_as, clerk, north_branch, data, django_assert_max_num_queries
):
    for n in range(150):
        take_complaint(
            north_branch,
            clerk,
            kind="barking" if n % 2 else "litter",
            when=at(2026, 1 + n % 5, 1 + n % 27, 9),
            address_line=f"{n % 60} Pine Street",
        )
    client = client_as(clerk)
    for name in ("report_kinds", "report_repeats", "report_citations"):
        client.get(reverse(f"complaints:{name}"), RANGE)
        with django_assert_max_num_queries(10):
            response = client.get(reverse(f"complaints:{name}"), RANGE)
        assert response.status_code == 200
    rows = reports.repeat_addresses(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=date(2026, 6, 30)
    )
    assert len(rows) == 61  # 60 Pine Street addresses with 2 or 3 each, and A
