"""Reports: SQL aggregation, voids netted, date range validated, CSV = table, scoped, bounded."""

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from html.parser import HTMLParser
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils.formats import date_format

from licensing.models import LicenseStatus, Tag, TagStatus
from licensing.services import reports
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import (
    LicenseFactory,
    ReceiptFactory,
    ReceiptLineFactory,
    TagStockFactory,
)

CHICAGO = ZoneInfo("America/Chicago")


def rows_of_csv(response):
    return list(csv.reader(io.StringIO(response.content.decode())))


class TableReader(HTMLParser):
    """The report table as the clerk sees it: header cells and body rows of cell text."""

    def __init__(self):
        super().__init__()
        self.header, self.rows, self._row, self._cell = [], [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if self.header:
                self.rows.append(self._row)
            else:
                self.header = self._row
            self._row = None


def table_of(response):
    assert response.status_code == 200, response.status_code
    reader = TableReader()
    reader.feed(response.content.decode())
    return reader.header, reader.rows


@pytest.fixture
def money(north_branch, glencoe, clerk):
    r1 = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        issued_at=datetime(2026, 3, 2, 23, 59, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(receipt=r1, amount=Decimal("18.00"))
    ReceiptLineFactory(
        receipt=r1,
        code="dog_license_late_penalty",
        description="Late penalty",
        amount=Decimal("9.00"),
    )
    r2 = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        issued_at=datetime(2026, 3, 3, 9, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(receipt=r2, amount=Decimal("18.00"))
    void = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        voids=r2,
        issued_at=datetime(2026, 3, 4, 9, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(receipt=void, amount=Decimal("-18.00"))
    outside = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        issued_at=datetime(2026, 3, 3, 0, 0, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(receipt=outside, amount=Decimal("18.00"))
    gl = ReceiptFactory(
        jurisdiction=glencoe, issued_by=clerk, issued_at=datetime(2026, 3, 2, 9, tzinfo=CHICAGO)
    )
    ReceiptLineFactory(receipt=gl, code="kennel_license", amount=Decimal("40.00"))


def test_revenue_nets_voids_and_counts_local_days(money, north_branch, glencoe):
    rows = reports.report_revenue(
        jurisdiction_ids=[north_branch.pk, glencoe.pk], start=date(2026, 3, 1), end=date(2026, 3, 4)
    )
    by_key = {(r["city"], r["code"]): r for r in rows}
    dog = by_key[("North Branch", "dog_license")]
    assert (dog["charged"], dog["voided"], dog["net"]) == (3, 1, Decimal("36.00"))
    assert by_key[("North Branch", "dog_license_late_penalty")]["net"] == Decimal("9.00")
    assert by_key[("Glencoe", "kennel_license")]["net"] == Decimal("40.00")
    only_2nd = reports.report_revenue(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 3, 2), end=date(2026, 3, 2)
    )
    assert sum(r["net"] for r in only_2nd) == Decimal("27.00")  # 23:59 local counts on the 2nd


def test_the_csv_has_the_same_rows_and_no_city_column_for_a_one_city_clerk(money, client_as, clerk):
    url = reverse("licensing:report_revenue")
    client = client_as(clerk)
    page = client.get(url, {"start": "2026-03-01", "end": "2026-03-04"})
    assert page.status_code == 200 and b"Glencoe" not in page.content
    data = rows_of_csv(
        client.get(url, {"start": "2026-03-01", "end": "2026-03-04", "format": "csv"})
    )
    assert data[0] == ["code", "description", "charged", "voided", "net"]
    assert ["dog_license", "Dog license", "3", "1", "36.00"] in data
    assert len(data) == 3
    for row in data[1:]:
        assert row[-1] in page.content.decode()


def test_an_administrator_of_two_cities_sees_the_city_column(money, client_as, administrator):
    data = rows_of_csv(
        client_as(administrator).get(
            reverse("licensing:report_revenue"),
            {"start": "2026-03-01", "end": "2026-03-04", "format": "csv"},
        )
    )
    assert data[0][0] == "city" and {r[0] for r in data[1:]} == {"North Branch", "Glencoe"}


@pytest.mark.parametrize(
    "params,message",
    [
        ({"start": "2026-03-05", "end": "2026-03-01"}, b"must not be before"),
        ({"start": "2020-01-01", "end": "2026-03-01"}, b"at most three years"),
        ({"start": "yesterday", "end": "2026-03-01"}, b"Enter a valid date"),
    ],
)
def test_a_bad_range_is_a_message_not_a_500(client_as, clerk, params, message):
    response = client_as(clerk).get(reverse("licensing:report_issued"), params)
    assert response.status_code == 400 and message in response.content


def test_issued_tags_and_expiring_reports(north_branch, clerk, client_as):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=10)
    licenses = [LicenseFactory(jurisdiction=north_branch, issued_by=clerk) for _ in range(3)]
    for license, number in zip(licenses, (1, 2, 3), strict=True):
        Tag.objects.filter(stock=stock, number=number).update(
            status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
        )
    Tag.objects.filter(stock=stock, number=4).update(status=TagStatus.LOST, license=licenses[0])
    licenses[2].__class__.objects.filter(pk=licenses[2].pk).update(status=LicenseStatus.VOID)
    ids = [north_branch.pk]
    issued = reports.report_issued(
        jurisdiction_ids=ids, start=date(2026, 1, 1), end=date(2026, 1, 31)
    )
    assert issued == [
        {"city": "North Branch", "kind": "dog", "issued": 3, "late_penalty": 0, "void": 1}
    ]
    tags = reports.report_tags(
        jurisdiction_ids=ids, start=date(2026, 1, 1), end=date(2026, 12, 31), on=date(2026, 6, 1)
    )
    assert tags[0] | {} == {
        "city": "North Branch",
        "year": 2026,
        "on_current_licenses": 2,
        "issued": 3,
        "in_stock": 6,
        "at_clinics": 0,
        "lost": 1,
        "void": 0,
        "total": 10,
    }
    expiring = reports.report_expiring(
        jurisdiction_ids=ids, start=date(2026, 12, 1), end=date(2026, 12, 31)
    )
    assert len(expiring) == 2 and expiring[0]["expires_on"] == date(2026, 12, 31)


@pytest.fixture
def licensed(north_branch, glencoe, clerk):
    """Known numbers: tags 1-10 of 2026; three licenses issued January 15 on tags 1-3,
    the third since voided; tag 4 lost; one of the two live licenses late. Glencoe has a
    license too, which a North Branch clerk never sees."""
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=10)
    owners = [
        OwnerFactory(jurisdiction=north_branch, first_name=f, last_name=last, phone=ph)
        for f, last, ph in (
            ("Ann", "Berg", "651-555-0101"),
            ("Carl", "Dahl", "651-555-0202"),
            ("Eva", "Falk", "651-555-0303"),
        )
    ]
    licenses = [
        LicenseFactory(
            jurisdiction=north_branch,
            issued_by=clerk,
            number=f"2026-000{i + 1}",
            animal=AnimalFactory(jurisdiction=north_branch, owner=owner, name=dog),
            late_penalty=late,
        )
        for i, (owner, dog, late) in enumerate(
            zip(owners, ("Rex", "Molly", "Pip"), (False, True, False), strict=True)
        )
    ]
    for license, number in zip(licenses, (1, 2, 3), strict=True):
        Tag.objects.filter(stock=stock, number=number).update(
            status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
        )
    Tag.objects.filter(stock=stock, number=4).update(status=TagStatus.LOST, license=licenses[0])
    licenses[2].__class__.objects.filter(pk=licenses[2].pk).update(status=LicenseStatus.VOID)
    LicenseFactory(jurisdiction=glencoe, issued_by=clerk, number="GL-2026-0001")
    return licenses


def test_the_issued_report_page_counts_licenses_late_and_void(licensed, client_as, clerk):
    """LIC-06: three issued in January, one with the LIC-13 late penalty, one voided."""
    client = client_as(clerk)
    params = {"start": "2026-01-01", "end": "2026-01-31"}
    header, rows = table_of(client.get(reverse("licensing:report_issued"), params))
    assert header == ["Kind", "Issued", "Late penalty", "Void"]
    assert rows == [["dog", "3", "1", "1"]]
    data = rows_of_csv(client.get(reverse("licensing:report_issued"), {**params, "format": "csv"}))
    assert data == [["kind", "issued", "late_penalty", "void"], ["dog", "3", "1", "1"]]
    # February: nothing issued, and the page says so rather than showing an empty table.
    page = client.get(
        reverse("licensing:report_issued"), {"start": "2026-02-01", "end": "2026-02-28"}
    )
    assert table_of(page)[1] == [] and "Nothing in this range." in page.content.decode()


def test_the_tags_report_page_shows_tags_outstanding(licensed, client_as, clerk):
    """LIC-08, LIC-10: of ten 2026 tags, two are on current licenses (the third license is
    void), three were issued, six are in stock, one is lost."""
    params = {"start": "2026-01-01", "end": "2026-12-31"}
    with time_machine.travel(datetime(2026, 6, 1, 10, tzinfo=CHICAGO), tick=False):
        client = client_as(clerk)
        header, rows = table_of(client.get(reverse("licensing:report_tags"), params))
        data = rows_of_csv(
            client.get(reverse("licensing:report_tags"), {**params, "format": "csv"})
        )
    assert header == [
        "Year",
        "On current licenses",
        "Issued",
        "In stock",
        "At clinics",
        "Lost",
        "Void",
        "Total",
    ]
    assert rows == [["2026", "2", "3", "6", "0", "1", "0", "10"]]
    assert data == [
        [
            "year",
            "on_current_licenses",
            "issued",
            "in_stock",
            "at_clinics",
            "lost",
            "void",
            "total",
        ],
        ["2026", "2", "3", "6", "0", "1", "0", "10"],
    ]
    # After the December 31 expiry no tag is on a current license (LIC-07).
    with time_machine.travel(datetime(2027, 1, 4, 10, tzinfo=CHICAGO), tick=False):
        client = client_as(clerk)  # a new session: the one above has lapsed by then
        _header, rows = table_of(client.get(reverse("licensing:report_tags"), params))
    assert rows == [["2026", "0", "3", "6", "0", "1", "0", "10"]]


def test_the_expiring_report_page_lists_the_live_licenses_with_contacts(licensed, client_as, clerk):
    """LIC-07: the two active licenses expire December 31 (the void one is not listed);
    the owner's name and phone are there to call, the mailing address and e-mail to
    write (no renewal notice printed yet)."""
    client = client_as(clerk)
    params = {"start": "2026-12-01", "end": "2026-12-31"}
    header, rows = table_of(client.get(reverse("licensing:report_expiring"), params))
    shown = date_format(date(2026, 12, 31))
    assert header == [
        "License",
        "Expires on",
        "Animal",
        "Owner",
        "Phone",
        "Mailing address",
        "E-mail",
        "Renewal notice",
    ]
    ann, carl = (lic.owner for lic in licensed[:2])
    assert rows == [
        ["2026-0001", shown, "Rex", "Ann Berg", "651-555-0101", ann.address, ann.email, ""],
        ["2026-0002", shown, "Molly", "Carl Dahl", "651-555-0202", carl.address, carl.email, ""],
    ]
    data = rows_of_csv(
        client.get(reverse("licensing:report_expiring"), {**params, "format": "csv"})
    )
    assert data == [
        ["license", "expires_on", "animal", "owner", "phone", "address", "email", "notice_printed"],
        ["2026-0001", "2026-12-31", "Rex", "Ann Berg", "651-555-0101", ann.address, ann.email, ""],
        [
            "2026-0002",
            "2026-12-31",
            "Molly",
            "Carl Dahl",
            "651-555-0202",
            carl.address,
            carl.email,
            "",
        ],
    ]
    # Without a range the page runs from today to December 31 of this year.
    for moment, expected in (
        (datetime(2026, 6, 1, 10, tzinfo=CHICAGO), 2),
        (datetime(2027, 1, 4, 10, tzinfo=CHICAGO), 0),
    ):
        with time_machine.travel(moment, tick=False):
            page = client_as(clerk).get(reverse("licensing:report_expiring"))
            assert len(table_of(page)[1]) == expected, moment


def test_the_revenue_page_nets_voids_per_fee_code(money, client_as, clerk, administrator):
    """REC-01, LIC-06: dog licenses 3 charged, 1 voided, $36.00 net; the late penalty
    $9.00 (the receipt of 00:00 on March 3 falls outside a range ending March 2)."""
    params = {"start": "2026-03-01", "end": "2026-03-04"}
    header, rows = table_of(client_as(clerk).get(reverse("licensing:report_revenue"), params))
    assert header == ["Fee code", "Fee", "Lines charged", "Lines voided", "Net amount"]
    assert rows == [
        ["dog_license", "Dog license", "3", "1", "$36.00"],
        ["dog_license_late_penalty", "Late penalty", "1", "0", "$9.00"],
        ["Total", "", "4", "1", "$45.00"],
    ]
    header, rows = table_of(
        client_as(clerk).get(
            reverse("licensing:report_revenue"), {"start": "2026-03-01", "end": "2026-03-02"}
        )
    )
    assert rows == [
        ["dog_license", "Dog license", "1", "0", "$18.00"],
        ["dog_license_late_penalty", "Late penalty", "1", "0", "$9.00"],
        ["Total", "", "2", "0", "$27.00"],
    ]
    header, rows = table_of(
        client_as(administrator).get(reverse("licensing:report_revenue"), params)
    )
    assert header[0] == "City"
    assert ["Glencoe", "kennel_license", "Dog license", "1", "0", "$40.00"] in rows
    assert ["North Branch", "dog_license", "Dog license", "3", "1", "$36.00"] in rows
    assert rows[-1] == ["Total", "", "", "5", "1", "$85.00"]


def test_report_queries_are_bounded(
    north_branch, glencoe, administrator, client_as, django_assert_max_num_queries
):
    for i in range(150):
        LicenseFactory(
            jurisdiction=north_branch if i % 2 else glencoe,
            issued_by=administrator,
            number=f"R-{i}",
        )
    client = client_as(administrator)
    for name in ("report_issued", "report_revenue", "report_tags", "report_expiring"):
        for extra in ({}, {"format": "csv"}):
            with django_assert_max_num_queries(10):
                response = client.get(
                    reverse(f"licensing:{name}"),
                    {"start": "2026-01-01", "end": "2026-12-31", **extra},
                )
            assert response.status_code == 200


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_reports_are_for_counter_staff(client_as, request, persona):
    client = client_as(request.getfixturevalue(persona))
    assert client.get(reverse("licensing:report_revenue")).status_code == 403


def test_the_revenue_report_takes_the_description_from_the_fee_not_a_void_line(
    north_branch, clerk, client_as
):
    """A void line ("Void: Annual dog license") does not head the row,
    and a code with only a void in the range still reads as the fee."""
    paid = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        issued_at=datetime(2026, 3, 2, 9, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(receipt=paid, description="Annual dog license", amount=Decimal("18.00"))
    void = ReceiptFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        voids=paid,
        issued_at=datetime(2026, 3, 5, 9, tzinfo=CHICAGO),
    )
    ReceiptLineFactory(
        receipt=void, description="Void: Annual dog license", amount=Decimal("-18.00")
    )
    client = client_as(clerk)
    _header, rows = table_of(
        client.get(
            reverse("licensing:report_revenue"), {"start": "2026-03-01", "end": "2026-03-31"}
        )
    )
    assert rows == [
        ["dog_license", "Annual dog license", "1", "1", "$0.00"],
        ["Total", "", "1", "1", "$0.00"],
    ]
    _header, rows = table_of(
        client.get(
            reverse("licensing:report_revenue"), {"start": "2026-03-05", "end": "2026-03-05"}
        )
    )
    assert rows[0] == ["dog_license", "Annual dog license", "0", "1", "-$18.00"]
    data = rows_of_csv(
        client.get(
            reverse("licensing:report_revenue"),
            {"start": "2026-03-05", "end": "2026-03-05", "format": "csv"},
        )
    )
    # The CSV keeps plain numbers for a spreadsheet.
    assert data[1] == ["dog_license", "Annual dog license", "0", "1", "-18.00"]
