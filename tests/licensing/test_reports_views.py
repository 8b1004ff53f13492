"""Reports: SQL aggregation, voids netted, date range validated, CSV = table, scoped, bounded."""

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from licensing.models import LicenceStatus, Tag, TagStatus
from licensing.services import reports
from tests.licensing.licence_factories import (
    LicenceFactory,
    ReceiptFactory,
    ReceiptLineFactory,
    TagStockFactory,
)

CHICAGO = ZoneInfo("America/Chicago")


def rows_of_csv(response):
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def money(north_branch, glencoe, clerk):
    r1 = ReceiptFactory(jurisdiction=north_branch, issued_by=clerk,
                        issued_at=datetime(2026, 3, 2, 23, 59, tzinfo=CHICAGO))
    ReceiptLineFactory(receipt=r1, amount=Decimal("18.00"))
    ReceiptLineFactory(receipt=r1, code="dog_license_late_penalty", description="Late penalty",
                       amount=Decimal("9.00"))
    r2 = ReceiptFactory(jurisdiction=north_branch, issued_by=clerk,
                        issued_at=datetime(2026, 3, 3, 9, tzinfo=CHICAGO))
    ReceiptLineFactory(receipt=r2, amount=Decimal("18.00"))
    void = ReceiptFactory(jurisdiction=north_branch, issued_by=clerk, voids=r2,
                          issued_at=datetime(2026, 3, 4, 9, tzinfo=CHICAGO))
    ReceiptLineFactory(receipt=void, amount=Decimal("-18.00"))
    outside = ReceiptFactory(jurisdiction=north_branch, issued_by=clerk,
                             issued_at=datetime(2026, 3, 3, 0, 0, tzinfo=CHICAGO))
    ReceiptLineFactory(receipt=outside, amount=Decimal("18.00"))
    gl = ReceiptFactory(jurisdiction=glencoe, issued_by=clerk,
                        issued_at=datetime(2026, 3, 2, 9, tzinfo=CHICAGO))
    ReceiptLineFactory(receipt=gl, code="kennel_license", amount=Decimal("40.00"))


def test_revenue_nets_voids_and_counts_local_days(money, north_branch, glencoe):
    rows = reports.report_revenue(jurisdiction_ids=[north_branch.pk, glencoe.pk],
                                  start=date(2026, 3, 1), end=date(2026, 3, 4))
    by_key = {(r["city"], r["code"]): r for r in rows}
    dog = by_key[("North Branch", "dog_license")]
    assert (dog["charged"], dog["voided"], dog["net"]) == (3, 1, Decimal("36.00"))
    assert by_key[("North Branch", "dog_license_late_penalty")]["net"] == Decimal("9.00")
    assert by_key[("Glencoe", "kennel_license")]["net"] == Decimal("40.00")
    only_2nd = reports.report_revenue(jurisdiction_ids=[north_branch.pk],
                                      start=date(2026, 3, 2), end=date(2026, 3, 2))
    assert sum(r["net"] for r in only_2nd) == Decimal("27.00")  # 23:59 local counts on the 2nd


def test_the_csv_has_the_same_rows_and_no_city_column_for_a_one_city_clerk(money, client_as,
                                                                          clerk):
    url = reverse("licensing:report_revenue")
    client = client_as(clerk)
    page = client.get(url, {"start": "2026-03-01", "end": "2026-03-04"})
    assert page.status_code == 200 and b"Glencoe" not in page.content
    data = rows_of_csv(client.get(url, {"start": "2026-03-01", "end": "2026-03-04",
                                        "format": "csv"}))
    assert data[0] == ["code", "description", "charged", "voided", "net"]
    assert ["dog_license", "Dog licence", "3", "1", "36.00"] in data
    assert len(data) == 3
    for row in data[1:]:
        assert row[-1] in page.content.decode()


def test_an_administrator_of_two_cities_sees_the_city_column(money, client_as, administrator):
    data = rows_of_csv(client_as(administrator).get(
        reverse("licensing:report_revenue"),
        {"start": "2026-03-01", "end": "2026-03-04", "format": "csv"}))
    assert data[0][0] == "city" and {r[0] for r in data[1:]} == {"North Branch", "Glencoe"}


@pytest.mark.parametrize("params,message", [
    ({"start": "2026-03-05", "end": "2026-03-01"}, b"must not be before"),
    ({"start": "2020-01-01", "end": "2026-03-01"}, b"at most three years"),
    ({"start": "yesterday", "end": "2026-03-01"}, b"Enter a valid date"),
])
def test_a_bad_range_is_a_message_not_a_500(client_as, clerk, params, message):
    response = client_as(clerk).get(reverse("licensing:report_issued"), params)
    assert response.status_code == 400 and message in response.content


def test_issued_tags_and_expiring_reports(north_branch, clerk, client_as):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=10)
    licences = [LicenceFactory(jurisdiction=north_branch, issued_by=clerk) for _ in range(3)]
    for licence, number in zip(licences, (1, 2, 3), strict=True):
        Tag.objects.filter(stock=stock, number=number).update(
            status=TagStatus.ISSUED, licence=licence, issued_on=date(2026, 1, 15))
    Tag.objects.filter(stock=stock, number=4).update(status=TagStatus.LOST,
                                                     licence=licences[0])
    licences[2].__class__.objects.filter(pk=licences[2].pk).update(status=LicenceStatus.VOID)
    ids = [north_branch.pk]
    issued = reports.report_issued(jurisdiction_ids=ids, start=date(2026, 1, 1),
                                   end=date(2026, 1, 31))
    assert issued == [{"city": "North Branch", "kind": "dog", "issued": 3, "late_penalty": 0,
                       "void": 1}]
    tags = reports.report_tags(jurisdiction_ids=ids, start=date(2026, 1, 1),
                               end=date(2026, 12, 31), on=date(2026, 6, 1))
    assert tags[0] | {} == {"city": "North Branch", "year": 2026, "on_current_licences": 2,
                            "issued": 3, "in_stock": 6, "lost": 1, "void": 0, "total": 10}
    expiring = reports.report_expiring(jurisdiction_ids=ids, start=date(2026, 12, 1),
                                       end=date(2026, 12, 31))
    assert len(expiring) == 2 and expiring[0]["expires_on"] == date(2026, 12, 31)
    client = client_as(clerk)
    for name in ("reports", "report_issued", "report_tags", "report_expiring"):
        assert client.get(reverse(f"licensing:{name}")).status_code == 200


def test_report_queries_are_bounded(north_branch, glencoe, administrator, client_as,
                                    django_assert_max_num_queries):
    for i in range(150):
        LicenceFactory(jurisdiction=north_branch if i % 2 else glencoe, issued_by=administrator,
                       number=f"R-{i}")
    client = client_as(administrator)
    for name in ("report_issued", "report_revenue", "report_tags", "report_expiring"):
        for extra in ({}, {"format": "csv"}):
            with django_assert_max_num_queries(10):
                response = client.get(reverse(f"licensing:{name}"),
                                      {"start": "2026-01-01", "end": "2026-12-31", **extra})
            assert response.status_code == 200


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_reports_are_for_counter_staff(client_as, request, persona):
    client = client_as(request.getfixturevalue(persona))
    assert client.get(reverse("licensing:report_revenue")).status_code == 403
