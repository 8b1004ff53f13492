"""Staff pages: rules in force per city, amendment history and form, fee schedule."""

from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from ordinance.models import RuleValue
from ordinance.rules import rule_in_force

LIST = reverse("ordinance:profile_list")
FEES = reverse("ordinance:fee_schedule")


def detail(city):
    return reverse("ordinance:profile_detail", args=[city.slug])


def amend(city, key):
    return reverse("ordinance:rule_amend", args=[city.slug, key])


def test_one_screen_shows_each_citys_values_with_their_citations(client_as, officer):
    page = client_as(officer).get(LIST).content.decode()
    assert "City of North Branch" in page and "City of Glencoe" in page
    assert "North Branch Sec. 6-29" in page and "Glencoe 701 Subd. 4(A)" in page
    assert "5 business days" in page and "$3.00" in page and "December 31" in page
    assert "Blank — requires city input" in page  # e.g. Glencoe 701 Subd. 4 kennel expiry
    assert "<mark>" in page  # the ordinance text around each value


def test_a_clerk_of_one_city_sees_only_that_city(client_as, clerk, glencoe):
    client = client_as(clerk)
    page = client.get(LIST).content.decode()
    assert "North Branch Sec. 6-29" in page and "Glencoe 701" not in page
    assert "Amendment history for" not in page  # no city picker with one city
    assert client.get(detail(glencoe)).status_code == 404


def test_an_officer_serving_both_sees_both_histories(client_as, officer, north_branch, glencoe):
    client = client_as(officer)
    assert "Ord. No. 230-15" in client.get(detail(north_branch)).content.decode()
    page = client.get(detail(glencoe)).content.decode()
    assert "Ord. No. 571" in page and "Record an amendment" not in page


def test_the_profile_page_makes_a_bounded_number_of_queries(
    client_as, officer, north_branch, glencoe, django_assert_max_num_queries
):
    rows = [
        RuleValue(
            jurisdiction=city,
            key="leash_max_ft",
            value=6 + i % 3,
            effective_from=date(2016, 1, 1) + timedelta(days=i),
            citation="x",
            ordinance_ref=f"Ord. {i}",
        )
        for i in range(150)
        for city in (north_branch, glencoe)
    ]
    RuleValue.objects.bulk_create(rows)
    client = client_as(officer)
    with django_assert_max_num_queries(10):
        assert client.get(LIST).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(detail(north_branch)).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(FEES).status_code == 200


def test_an_administrator_records_an_amendment(client_as, administrator, north_branch):
    response = client_as(administrator).post(
        amend(north_branch, "duplicate_tag_fee"),
        {
            "value": "4.00",
            "effective_from": "2026-07-01",
            "ordinance_ref": "Ord. No. 260-26",
            "note": "Raised",
        },
    )
    assert response.status_code == 302
    assert rule_in_force(north_branch, "duplicate_tag_fee", on=date(2026, 7, 1)).value == Decimal(
        "4.00"
    )
    assert rule_in_force(north_branch, "duplicate_tag_fee", on=date(2026, 6, 30)).value == Decimal(
        "3.00"
    )
    row = RuleValue.objects.get(key="duplicate_tag_fee", effective_from=date(2026, 7, 1))
    assert row.recorded_by == administrator and row.ordinance_ref == "Ord. No. 260-26"


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("duplicate_tag_fee", "three dollars", "not a number"),
        ("duplicate_tag_fee", "3.005", "dollars and cents"),
        ("impound_hold_business_days", "5.5", "whole number"),
        ("license_expiry", "13-45", "month and day"),
    ],
)
def test_a_wrong_value_is_refused_next_to_the_field_keeping_the_input(
    client_as, administrator, north_branch, key, value, message
):
    response = client_as(administrator).post(
        amend(north_branch, key),
        {
            "value": value,
            "effective_from": "2026-07-01",
            "ordinance_ref": "Ord. No. 9",
        },
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert message in page and f'value="{value}"' in page and "Ord. No. 9" in page
    assert not RuleValue.objects.filter(key=key, effective_from=date(2026, 7, 1)).exists()


def test_an_amendment_cannot_predate_the_ordinance(client_as, administrator, north_branch):
    response = client_as(administrator).post(
        amend(north_branch, "transfer_fee"),
        {
            "value": "6.00",
            "effective_from": "2010-01-01",
            "ordinance_ref": "Ord. No. 9",
        },
    )
    assert (
        response.status_code == 400
        and "before the ordinance was adopted" in response.content.decode()
    )


def test_an_administrator_fills_a_blank(client_as, administrator, glencoe):
    client = client_as(administrator)
    assert "Fill in this value" in client.get(detail(glencoe)).content.decode()
    response = client.post(
        amend(glencoe, "appeal_stays_compliance"),
        {"value": "no", "effective_from": "2026-01-01", "ordinance_ref": "Ord. No. 601"},
    )
    assert response.status_code == 302
    assert rule_in_force(glencoe, "appeal_stays_compliance", on=date(2026, 1, 1)).value is False


def test_only_administrators_amend_and_only_their_cities(
    client_as, clerk, administrator, north_branch
):
    assert client_as(clerk).get(amend(north_branch, "transfer_fee")).status_code == 403
    assert client_as(administrator).get(amend(north_branch, "no_such_key")).status_code == 404


def test_the_fee_schedule_lists_fees_in_force_with_their_authority(client_as, officer):
    page = client_as(officer).get(FEES).content.decode()
    assert "Demo Res. 2025-01" in page and "North Branch Sec. 6-63" in page
    assert "$3.00" in page and "$15.00" in page and "Glencoe 701 Subd. 13(A)" in page
    assert "Not set" in page


def test_profile_check_lists_blanks_and_what_they_block(cities):
    out = StringIO()
    call_command("profile_check", stdout=out)
    text = out.getvalue()
    assert "BLANK kennel_license_expiry (Glencoe 701 Subd. 4)" in text
    assert "Issuing kennel licenses (no expiry date to print)" in text
    assert "BLANK kennel_license_fee" not in text.split("City of North Branch")[1]  # demo res.
