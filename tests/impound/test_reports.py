"""Impound records: monthly figures, the register, retention, public perusal (IMP-06,
Minn. Stat. 346.47 subd. 2, rules.md Appendix H MN-03)."""

import csv
import io
import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.models.deletion import ProtectedError
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from impound.models import CaseStatus, ImpoundCase
from impound.services.intake import case_intake
from impound.services.reports import impound_monthly, months_before
from kernel.kept import RecordKept

from .factories import make_pound

CHICAGO = ZoneInfo("America/Chicago")
CLOCK = "2026-12-15T10:00"
pytestmark = pytest.mark.django_db
GROUND = {"north-branch": "unlicensed_at_large", "glencoe": "dog_at_large"}


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def take_in(city, pound, actor, placed, **extra):
    fields = dict(
        species="dog",
        breed="Labrador mix",
        sex="female",
        color="Black",
        approximate_age_months=24,
        seized_where="Main St and 5th Ave",
        found_area="Main St and 5th Ave",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St",
        microchip="985141000123456",
    )
    fields.update(extra)
    return case_intake(
        jurisdiction=city,
        pound=pound,
        actor=actor,
        ground=GROUND.get(city.slug) or _first_ground(city),
        placed_at=placed,
        seized_on=placed.date(),
        **fields,
    )


def _first_ground(city):
    from impound.services.intake import impound_grounds

    return impound_grounds(city, on=date(2026, 12, 15))[0].code


def close(case, status, on, actor, **extra):
    case.close(
        status, on=on, at=at(on.year, on.month, on.day, 12), actor=actor, note="done", **extra
    )


@pytest.fixture
def known(north_branch, glencoe, officer, pound):
    """North Branch: September 2 in, 1 redeemed (4 days); October 2 in, 1 adopted
    (8 days), 1 euthanized (10 days); November 1 in (at 11:30 p.m. local, December in
    UTC), 1 transferred (13 days). Glencoe: 1 in and redeemed in October."""
    a = take_in(north_branch, pound, officer, at(2026, 9, 10, 14))
    b = take_in(north_branch, pound, officer, at(2026, 9, 28, 9))
    c = take_in(north_branch, pound, officer, at(2026, 10, 2, 9))
    d = take_in(north_branch, pound, officer, at(2026, 10, 20, 9))
    e = take_in(north_branch, pound, officer, at(2026, 11, 30, 23, 30))
    g = take_in(glencoe, pound, officer, at(2026, 10, 5, 9), seized_where="Zzgl Hennepin Ave")
    close(a, CaseStatus.REDEEMED, date(2026, 9, 14), officer)
    close(b, CaseStatus.ADOPTED, date(2026, 10, 6), officer, to_name="Ada Adopter")
    close(c, CaseStatus.EUTHANIZED, date(2026, 10, 12), officer)
    close(d, CaseStatus.TRANSFERRED, date(2026, 11, 2), officer, to_name="Rescue Inc.")
    close(g, CaseStatus.REDEEMED, date(2026, 10, 9), officer)
    return {"nb": [a, b, c, d, e], "gl": g}


def _by_month(rows, city):
    return {r["month"]: r for r in rows if r["city"] == city}


@pytest.mark.clock(CLOCK)
def test_monthly_figures_on_a_known_data_set(known, north_branch, glencoe):
    rows = impound_monthly(
        jurisdiction_ids=[north_branch.pk, glencoe.pk],
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    assert len(rows) == 24  # every month of both cities, zeros included
    nb = _by_month(rows, north_branch.short_name)
    assert [nb[m]["intakes"] for m in ("2026-08", "2026-09", "2026-10", "2026-11", "2026-12")] == [
        0,
        2,
        2,
        1,
        0,
    ]
    assert nb["2026-09"]["redemptions"] == 1 and nb["2026-09"]["average_days_held"] == 4.0
    assert (nb["2026-10"]["adoptions"], nb["2026-10"]["euthanasias"]) == (1, 1)
    assert nb["2026-10"]["average_days_held"] == 9.0
    assert nb["2026-11"]["other_closings"] == 1 and nb["2026-11"]["average_days_held"] == 13.0
    assert nb["2026-11"]["closed"] == 1
    assert nb["2026-12"]["average_days_held"] is None
    gl = _by_month(rows, glencoe.short_name)
    assert gl["2026-10"]["intakes"] == 1 and gl["2026-10"]["redemptions"] == 1
    assert sum(r["intakes"] for r in gl.values()) == 1


@pytest.mark.clock(CLOCK)
def test_the_other_city_is_left_out(known, north_branch):
    rows = impound_monthly(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    assert {r["city"] for r in rows} == {north_branch.short_name}
    assert sum(r["redemptions"] for r in rows) == 1


def _cells(html: str) -> list[list[str]]:
    body = re.search(r"<tbody>(.*?)</tbody>", html, re.S).group(1)
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>.*?</t[hd]>", tr)
        ]
        for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


@pytest.mark.clock(CLOCK)
def test_the_page_shows_chart_and_table_and_the_csv_has_the_same_numbers(
    known, client_as, clerk, north_branch
):
    client = client_as(clerk)
    url = reverse("impound:records")
    page = client.get(url, {"year": 2026})
    assert page.status_code == 200
    html = page.content.decode()
    table = _cells(html)
    assert len(table) == 12
    response = client.get(url, {"year": 2026, "format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0][:2] == ["month", "intakes"]  # one city: no city column
    assert [[c or "—" for c in line] for line in lines[1:]] == table
    assert ["2026-10", "2", "0", "1", "1", "0", "2", "9.0"] == lines[10]
    # The chart: named, one bar per month and series (12 months x 5 series).
    svg = re.search(r"<svg.*?</svg>", html, re.S).group(0)
    assert '<title id="impound-chart-1-title">' in svg
    assert svg.count('<rect class="bar"') == 12 * 5
    assert "<title>Oct, Adoptions: 1</title>" in svg
    assert "<script" not in html.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'scope="col"' in html and 'scope="row"' in html


@pytest.mark.clock(CLOCK)
def test_the_page_says_how_long_records_are_kept_with_the_section(known, client_as, glencoe_clerk):
    html = client_as(glencoe_clerk).get(reverse("impound:records")).content.decode()
    assert "Records are kept at least 6 months (Glencoe 701 Subd. 13)" in html


@pytest.mark.clock(CLOCK)
def test_the_year_is_one_with_cases_or_this_one(known, client_as, clerk):
    client = client_as(clerk)
    html = client.get(reverse("impound:records")).content.decode()
    assert '<option value="2026" selected>' in html
    assert client.get(reverse("impound:records"), {"year": 2019}).status_code == 400
    assert client.get(reverse("impound:register_csv"), {"year": "x"}).status_code == 400


@pytest.mark.clock(CLOCK)
def test_the_register_has_the_c13_columns_and_only_the_users_city(
    known, client_as, clerk, glencoe_clerk
):
    response = client_as(clerk).get(reverse("impound:register_csv"), {"year": 2026})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 5
    assert "Zzgl" not in response.content.decode()
    first = rows[0]
    assert first["placed_at"] == "2026-09-10 14:00"
    assert first["received_from_name"] == "Pat Finder"
    assert first["disposition"] == "Redeemed by the owner" and first["closed_on"] == "2026-09-14"
    assert rows[1]["transferred_to_name"] == "Ada Adopter"
    assert rows[4]["placed_at"] == "2026-11-30 23:30" and rows[4]["closed_on"] == ""
    gl = list(
        csv.DictReader(
            io.StringIO(
                client_as(glencoe_clerk)
                .get(reverse("impound:register_csv"), {"year": 2026})
                .content.decode()
            )
        )
    )
    assert [r["location_seized"] for r in gl] == ["Zzgl Hennepin Ave"]


@pytest.mark.clock(CLOCK)
def test_a_glencoe_register_leaves_out_the_parties_of_a_young_animal(
    glencoe, officer, pound, client_as, glencoe_clerk
):
    take_in(glencoe, pound, officer, at(2026, 12, 1, 9), approximate_age_months=2)
    response = client_as(glencoe_clerk).get(reverse("impound:register_csv"))
    (row,) = csv.DictReader(io.StringIO(response.content.decode()))
    assert row["received_from_name"] == "" and row["approximate_age_months"] == "2"


@pytest.mark.parametrize("persona", ["resident", None])
@pytest.mark.clock(CLOCK)
def test_staff_pages_are_closed_to_residents_and_anonymous(known, client, request, persona):
    if persona:
        client.force_login(request.getfixturevalue(persona))
    for name in ("impound:records", "impound:register_csv"):
        status = client.get(reverse(name)).status_code
        assert status == (403 if persona else 302), name


def _make_cases(count, north_branch, glencoe, officer, pound):
    for i in range(count):
        city = north_branch if i % 2 else glencoe
        case = take_in(city, pound, officer, at(2026, 7 + i % 5, 1 + i % 27, 9))
        if i % 2 == 0:
            status = (CaseStatus.REDEEMED, CaseStatus.ADOPTED, CaseStatus.EUTHANIZED)[i % 3]
            close(case, status, date(2026, 7 + i % 5, 28), officer)


def _queries(client, url, params=None):
    """Queries one page makes (the clerk's session and user included)."""
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, params or {}).status_code == 200
    return len(ctx.captured_queries)


def _all_queries(client, anonymous, north_branch):
    public = reverse("impound:public_records", args=[north_branch.slug])
    return [
        _queries(client, reverse("impound:records")),
        _queries(client, reverse("impound:records"), {"format": "csv"}),
        _queries(client, reverse("impound:register_csv")),
        _queries(anonymous, public),
        _queries(anonymous, public, {"page": 2}),
    ]


@pytest.mark.clock(CLOCK)
def test_query_count_does_not_grow_with_the_cases(
    north_branch, glencoe, officer, pound, client, administrator
):
    """The administrator serves both cities: the page reads both cities' rules."""
    from django.test import Client

    client.force_login(administrator)
    anonymous = Client()
    _make_cases(5, north_branch, glencoe, officer, pound)
    _all_queries(client, anonymous, north_branch)  # the user, roles and rules: cached after
    few = _all_queries(client, anonymous, north_branch)
    _make_cases(45, north_branch, glencoe, officer, pound)
    many = _all_queries(client, anonymous, north_branch)
    assert few == many
    assert max(many) <= 10


# --- Retention (IMP-06) --------------------------------------------------------------


@pytest.mark.clock(CLOCK)
def test_a_case_is_never_deleted(known):
    case = known["nb"][0]
    with pytest.raises(RecordKept):
        ImpoundCase.objects.filter(pk=case.pk).delete()
    with pytest.raises(RecordKept):
        case.delete()
    with pytest.raises(ProtectedError):
        case.pound.delete()  # the database keeps the cases (PROTECT)
    assert ImpoundCase.objects.filter(pk=case.pk).exists()
    assert ImpoundCase.objects.count() == 6


# --- Public perusal (Minn. Stat. 346.47 subd. 2, MN-03) -------------------------------


@pytest.mark.parametrize("persona", ["resident", None])
@pytest.mark.clock(CLOCK)
def test_the_public_list_shows_the_animals_and_no_person(
    known, client, request, persona, north_branch
):
    if persona:
        client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("impound:public_records", args=[north_branch.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    for case in known["nb"]:
        assert case.number in html
    for private in ("Pat Finder", "12 Elm St", "985141000123456", "Ada Adopter", "Rescue Inc."):
        assert private not in html, private
    assert known["nb"][0].brought_by_name not in html
    assert "Zzgl" not in html  # Glencoe's case is on Glencoe's list
    assert "Minn. Stat. 346.47 subd. 2" in html
    assert "County Animal Pound" in html and "400 Kennel Road" in html
    assert "Monday" in html and "9:00 AM" in html
    assert "Records are kept at least 6 months" in html
    assert "Main St and 5th Ave" in html and "Labrador mix" in html


@pytest.mark.clock(CLOCK)
def test_the_public_list_covers_the_retention_period_and_pages(
    north_branch, glencoe, officer, pound, client, django_assert_max_num_queries
):
    old = take_in(north_branch, pound, officer, at(2026, 5, 1, 9), found_area="Old Mill Rd")
    close(old, CaseStatus.REDEEMED, date(2026, 6, 1), officer)  # closed before June 15
    for i in range(30):
        take_in(north_branch, pound, officer, at(2026, 11, 1 + i % 28, 9), found_area=f"Lot {i}")
    url = reverse("impound:public_records", args=[north_branch.slug])
    with django_assert_max_num_queries(10):
        first = client.get(url).content.decode()
    assert old.found_area not in first  # placed and closed before June 15: past six months
    assert "Page 1 of 2" in first
    with django_assert_max_num_queries(10):
        second = client.get(url, {"page": 2}).content.decode()
    assert "Page 2 of 2" in second
    assert months_before(date(2026, 12, 15), 6) == date(2026, 6, 15)
    assert client.get(reverse("impound:public_records", args=["nowhere"])).status_code == 404


def test_months_before_keeps_the_day_or_takes_the_months_last():
    assert months_before(date(2026, 8, 31), 6) == date(2026, 2, 28)
    assert months_before(date(2026, 3, 15), 3) == date(2025, 12, 15)
