"""A clinic's monthly statement and the clinic sales and balances by month:
the sales with their receipt numbers (REC-01), the fees due to the city
with their authority, voids netted in the month they happen, the tags received,
returned and lost with who and why, and the unsold tags at the month's end (REC-02);
the month is Chicago's (a sale at 23:30 on March 31 is March's). The PDF's text is read
back."""

from datetime import date
from decimal import Decimal

import pytest
import time_machine

from clinics.models import ReconciliationKind
from clinics.services.consignment import tags_reconcile
from clinics.services.sales import clinic_sale
from clinics.services.statements import clinic_balances, clinic_statement, number_ranges
from clinics.views.statements import _snapshot, statement_rows
from licensing.services.voids import receipt_void
from notices.services import document_render
from tests.clinics.consign_helpers import NOW, at, block, sellable_dog, stock
from tests.clinics.helpers import make_clinic, make_vet
from tests.pdf import pdf_text

MARCH, APRIL = (2026, 3), (2026, 4)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def season(north_branch, clerk):
    """Tags 41-50 to the clinic on March 2; sold: 41 that morning, 42 at 23:30 on March
    31, 43 just after midnight on April 1; 45 lost March 10; 49-50 returned March 20;
    the sale of 41 voided by the clerk on April 2."""
    with time_machine.travel(NOW, tick=False):
        stock(north_branch, clerk)
        clinic = make_clinic([north_branch])
        vet = make_vet(clinic)
        the_block = block(clinic, north_branch, clerk, 41, 50, note="Spring clinic")
        certs = [
            sellable_dog(north_branch, clinic, vet, name=n, chip=f"98511200770000{i}")[1]
            for i, n in enumerate(("Clover", "Daisy", "Echo"))
        ]
    sales = []
    for cert, moment in zip(
        certs, (NOW, at(date(2026, 3, 31), 23, 30), at(date(2026, 4, 1), 0, 10)), strict=True
    ):
        with time_machine.travel(moment, tick=False):
            sales.append(clinic_sale(clinic=clinic, certificate=cert, actor=vet))
    for day, kind, first, last, why in (
        (date(2026, 3, 10), ReconciliationKind.LOST, 45, 45, "Dropped in the parking lot"),
        (date(2026, 3, 20), ReconciliationKind.RETURNED, 49, 50, "Too many for the season"),
    ):
        with time_machine.travel(at(day), tick=False):
            tags_reconcile(
                block=the_block,
                kind=kind,
                first_number=first,
                last_number=last,
                reason=why,
                actor=clerk,
            )
    with time_machine.travel(at(date(2026, 4, 2)), tick=False):
        void = receipt_void(receipt=sales[0].receipt, actor=clerk, reason="Wrong owner")
    return clinic, sales, void


def test_number_ranges():
    assert number_ranges([45, 41, 42, 43, 47, 48]) == "41–43, 45, 47–48"
    assert number_ranges([]) == ""


def test_the_march_statement_lists_sales_fees_movements_and_unsold_tags(north_branch, season):
    clinic, sales, void = season
    march = clinic_statement(clinic=clinic, jurisdiction=north_branch, year=2026, month=3)
    assert [s["receipt"] for s in march.sales] == [sales[0].receipt.number, sales[1].receipt.number]
    assert march.sales[0]["voided_by"] == void.number  # shown beside the sale it voids
    assert [s["tag"] for s in march.sales] == [41, 42]
    assert march.voids == []  # the void is April's
    assert march.due == sales[0].receipt.total + sales[1].receipt.total
    fee = next(f for f in march.fees if f["code"] == "dog_license")
    assert fee["lines"] == 2 and fee["authority"]  # FEE-01: the authority that sets it
    assert [r["numbers"] for r in march.received] == ["41–50"]
    assert march.received[0]["why"] == "Spring clinic"
    assert [(r["numbers"], r["why"]) for r in march.lost] == [("45", "Dropped in the parking lot")]
    assert [r["numbers"] for r in march.returned] == ["49–50"]
    assert march.unsold == [{"year": 2026, "numbers": "43–44, 46–48", "count": 5}]
    assert march.counts == {
        "opening": 0,
        "received": 10,
        "sold": 2,
        "returned": 2,
        "lost": 1,
        "closing": 5,
    }
    assert march.tag_citation == "North Branch Sec. 6-63"


def test_april_opens_where_march_closed_and_nets_the_void(north_branch, season):
    clinic, sales, void = season
    april = clinic_statement(clinic=clinic, jurisdiction=north_branch, year=2026, month=4)
    assert [s["receipt"] for s in april.sales] == [sales[2].receipt.number]
    assert [(v["number"], v["voids"]) for v in april.voids] == [
        (void.number, sales[0].receipt.number)
    ]
    assert april.due == sales[2].receipt.total + void.total
    assert april.due == sales[2].receipt.total - sales[0].receipt.total
    assert april.counts["opening"] == 5 and april.counts["closing"] == 4
    assert april.unsold[0]["numbers"] == "44, 46–48"
    february = clinic_statement(clinic=clinic, jurisdiction=north_branch, year=2026, month=2)
    assert february.counts == dict.fromkeys(february.counts, 0)
    assert february.due == Decimal("0.00") and february.sales == []


def test_the_statement_pdf_lists_the_sale_and_the_unsold_tags(north_branch, season, vet_user):
    clinic, sales, _void = season
    march = clinic_statement(clinic=clinic, jurisdiction=north_branch, year=2026, month=3)
    text = pdf_text(
        document_render(
            template="clinic_statement.html",
            snapshot=_snapshot(march, user=vet_user, now=NOW),
        )
    )
    assert "Monthly statement of licenses sold at the clinic" in text
    assert "Lakes Veterinary Clinic" in text and "March 2026" in text
    for sale in sales[:2]:
        assert f"{sale.receipt.number}" in text and sale.license.number in text
    assert "voided by receipt" in text
    assert "Unsold tags at the month's end" in text
    assert "2026: tags 43–44, 46–48 (5 tags)" in text
    assert "Total due to the city" in text and f"${march.due}" in text
    assert "North Branch Sec. 6-63" in text  # the tag register's section
    assert "Dropped in the parking lot" in text


def test_the_statement_csv_rows(north_branch, season):
    clinic, sales, _void = season
    march = clinic_statement(clinic=clinic, jurisdiction=north_branch, year=2026, month=3)
    rows = statement_rows(march)
    kinds = [r["kind"] for r in rows]
    assert kinds.count("sale") == 2 and kinds[-1] == "due"
    assert rows[-1]["amount"] == march.due
    assert {"received", "returned", "lost", "unsold", "fee"} <= set(kinds)
    unsold = next(r for r in rows if r["kind"] == "unsold")
    assert (unsold["tags"], unsold["count"]) == ("43–44, 46–48", 5)


def test_the_balances_by_month(north_branch, glencoe, season):
    clinic, sales, void = season
    rows = clinic_balances(jurisdiction_ids={north_branch.pk}, year=2026, through=date(2026, 4, 2))
    assert [r["month"] for r in rows] == [date(2026, m, 1) for m in (1, 2, 3, 4)]
    jan, _feb, march, april = rows
    assert (jan["on_hand"], jan["due"]) == (0, Decimal("0.00"))
    assert march | {} == march and (
        march["received"],
        march["sold"],
        march["returned"],
        march["lost"],
        march["on_hand"],
    ) == (10, 2, 2, 1, 5)
    assert march["collected"] == sales[0].receipt.total + sales[1].receipt.total
    assert (april["sold"], april["on_hand"], april["voided"]) == (1, 4, void.total)
    assert april["due"] == sales[2].receipt.total + void.total
    assert {r["clinic"] for r in rows} == {clinic.name}
    # Another city's user sees none of it; a year later the tags are still on hand.
    assert clinic_balances(jurisdiction_ids={glencoe.pk}, year=2026, through=date(2026, 4, 2)) == []
    next_year = clinic_balances(
        jurisdiction_ids={north_branch.pk}, year=2027, through=date(2027, 1, 15)
    )
    assert [(r["month"], r["on_hand"]) for r in next_year] == [(date(2027, 1, 1), 4)]


@pytest.fixture
def vet_user(season):
    from clinics.models import ClinicMember

    return ClinicMember.objects.get(clinic=season[0]).user
