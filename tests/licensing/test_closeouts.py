"""The clerk's daily close-out and deposit slip (REC-01, LIC-06).

Totals by payment method, the checks with their numbers, the voids and the receipt range;
a closed day is locked (a later receipt or a correcting void goes to the next close-out);
per clerk and per city; the deposit slip is archived and read back from its PDF.
"""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from base.roles import CLERK
from kernel.kept import RecordKept
from licensing.models import CloseOut, CloseOutReceipt
from licensing.services.closeouts import (
    closeout_close,
    closeout_open_days,
    closeout_open_summary,
    closeout_summary,
)
from licensing.services.documents import documents_for
from licensing.services.receipts import FeeLine, receipt_create
from licensing.services.voids import receipt_void
from notices.services import document_pdf
from ordinance.refusals import Refused
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 12, 2, 16, 30, tzinfo=CHICAGO)
DAY = NOW.date()

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-02T16:30")]


def _pay(city, clerk, amount, method="cash", reference="", *, at=NOW, tendered=None):
    owner = OwnerFactory(jurisdiction=city, first_name="Pat", last_name=f"Payer{amount}")
    with transaction.atomic():
        return receipt_create(
            jurisdiction=city,
            payer=owner,
            lines=[FeeLine("dog_license", "Dog license", Decimal(amount), "Res. 2025-01")],
            method=method,
            reference=reference,
            tendered=tendered,
            actor=clerk,
            now=at,
        )


@pytest.fixture
def day(north_branch, clerk):
    """Carol's day: two cash, two checks, one card; a receipt of yesterday stays open."""
    receipts = [
        _pay(north_branch, clerk, "18.00", at=NOW - timedelta(hours=6)),
        _pay(north_branch, clerk, "25.00", "check", "1041", at=NOW - timedelta(hours=5)),
        _pay(north_branch, clerk, "3.00", at=NOW - timedelta(hours=4)),
        _pay(north_branch, clerk, "36.00", "check", "2207", at=NOW - timedelta(hours=3)),
        _pay(north_branch, clerk, "5.00", "card", "4242", at=NOW - timedelta(hours=2)),
    ]
    yesterday = _pay(north_branch, clerk, "9.00", at=NOW - timedelta(days=1))
    return receipts, yesterday


def test_the_day_is_totaled_by_method_with_checks_and_the_receipt_range(day, north_branch, clerk):
    receipts, _yesterday = day
    summary = closeout_open_summary(clerk=clerk, jurisdiction=north_branch, day=DAY)
    assert [r.number for r in summary.receipts] == [r.number for r in receipts]
    assert summary.totals == {
        "cash": Decimal("21.00"),
        "check": Decimal("61.00"),
        "card": Decimal("5.00"),
    }
    assert summary.total == Decimal("87.00") and summary.deposit == Decimal("82.00")
    assert [(r.reference, r.total) for r in summary.checks] == [
        ("1041", Decimal("25.00")),
        ("2207", Decimal("36.00")),
    ]
    assert (summary.first_receipt, summary.last_receipt) == (
        receipts[0].number,
        receipts[-1].number,
    )


def test_closing_snapshots_the_day_and_prints_the_deposit_slip(day, north_branch, clerk):
    receipts, yesterday = day
    closeout = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    assert (closeout.cash_total, closeout.check_total, closeout.card_total, closeout.total) == (
        Decimal("21.00"),
        Decimal("61.00"),
        Decimal("5.00"),
        Decimal("87.00"),
    )
    assert closeout.receipt_count == 5 and closeout.sequence == 1
    assert (closeout.first_receipt, closeout.last_receipt) == (
        receipts[0].number,
        receipts[-1].number,
    )
    assert set(closeout.entries.values_list("receipt_id", flat=True)) == {r.pk for r in receipts}
    assert not CloseOutReceipt.objects.filter(receipt=yesterday).exists()  # its own day
    assert closeout.history.count() == 1  # audit history
    slip = documents_for(closeout)["deposit_slip"]
    text = pdf_text(document_pdf(slip))
    assert "Deposit slip" in text and "Dec 2, 2026" in text and "Carol Clerk" in text
    assert "Cash $21.00" in text and "Check $61.00" in text and "Card $5.00" in text
    assert "Total of all receipts $87.00" in text
    assert "To deposit (cash and checks) $82.00" in text
    assert "1041" in text and "2207" in text  # the check numbers
    assert f"numbers {receipts[0].number} to {receipts[-1].number}" in text
    assert "No voids." in text


def test_a_closed_day_is_locked_and_a_later_receipt_goes_to_the_next_closeout(
    day, north_branch, clerk
):
    first = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    with pytest.raises(Refused, match="no receipts left to close"):
        closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    late = _pay(north_branch, clerk, "18.00", at=NOW + timedelta(minutes=20))
    assert [
        r.pk
        for r in closeout_open_summary(clerk=clerk, jurisdiction=north_branch, day=DAY).receipts
    ] == [late.pk]
    second = closeout_close(
        clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW + timedelta(minutes=30)
    )
    assert second.sequence == 2 and second.total == Decimal("18.00")
    first.refresh_from_db()
    assert first.total == Decimal("87.00") and first.entries.count() == 5
    # A receipt is in one close-out only; the rows are never deleted or rewritten.
    with pytest.raises(IntegrityError), transaction.atomic():
        CloseOutReceipt.objects.create(closeout=second, receipt=day[0][0])
    with pytest.raises(RecordKept):
        first.delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        CloseOut.objects.filter(pk=first.pk).update(total=Decimal("1.00"))


def test_a_correction_after_closing_is_a_void_in_the_next_closeout(day, north_branch, clerk):
    receipts, _yesterday = day
    closed = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    later = NOW + timedelta(minutes=10)
    void = receipt_void(receipt=receipts[0], actor=clerk, reason="Wrong dog", now=later)
    summary = closeout_open_summary(clerk=clerk, jurisdiction=north_branch, day=DAY)
    assert [r.pk for r in summary.voids] == [void.pk]
    assert summary.totals["cash"] == Decimal("-18.00")
    correction = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=later)
    assert correction.void_count == 1 and correction.cash_total == Decimal("-18.00")
    assert closeout_summary(closed).total == Decimal("87.00")  # the closed day as closed
    text = pdf_text(document_pdf(documents_for(correction)["deposit_slip"]))
    assert f"{void.number} {receipts[0].number} Wrong dog $18.00 (cash)" in text
    assert "close-out 2 of the day" in text


def test_each_clerk_closes_their_own_receipts(day, north_branch, clerk):
    dana = make_user("dana", CLERK, [north_branch], first_name="Dana")
    hers = _pay(north_branch, dana, "18.00", "check", "777")
    mine = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    assert hers.pk not in set(mine.entries.values_list("receipt_id", flat=True))
    theirs = closeout_close(clerk=dana, jurisdiction=north_branch, day=DAY, now=NOW)
    assert theirs.sequence == 1 and theirs.check_total == Decimal("18.00")
    assert theirs.receipt_count == 1


def test_each_city_is_closed_on_its_own(north_branch, glencoe, administrator):
    nb = _pay(north_branch, administrator, "18.00")
    gl = _pay(glencoe, administrator, "40.00")
    days = closeout_open_days(clerk=administrator, jurisdiction_ids=administrator.jurisdiction_ids)
    assert {(row["jurisdiction_id"], row["day"]) for row in days} == {
        (north_branch.pk, DAY),
        (glencoe.pk, DAY),
    }
    closed = closeout_close(clerk=administrator, jurisdiction=north_branch, day=DAY, now=NOW)
    assert closed.total == Decimal("18.00")
    assert list(closed.entries.values_list("receipt_id", flat=True)) == [nb.pk]
    left = closeout_open_summary(clerk=administrator, jurisdiction=glencoe, day=DAY)
    assert [r.pk for r in left.receipts] == [gl.pk]


def test_a_day_in_the_future_or_with_nothing_to_close_is_refused(north_branch, clerk):
    with pytest.raises(Refused, match="future"):
        closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY + timedelta(days=1), now=NOW)
    with pytest.raises(Refused, match="no receipts"):
        closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    assert not CloseOut.objects.exists()


# --- Pages ------------------------------------------------------------------------------


def test_the_clerk_sees_the_day_confirms_and_closes(day, client_as, clerk):
    client = client_as(clerk)
    page = client.get(reverse("licensing:closeout_day")).content.decode()
    assert "$21.00" in page and "$61.00" in page and "1041" in page and "2207" in page
    assert "Close the day" in page
    confirm = client.get(reverse("licensing:closeout_close"), {"day": str(DAY)})
    assert confirm.status_code == 200 and "Confirm: close the day" in confirm.content.decode()
    assert not CloseOut.objects.exists()  # the confirmation step changes nothing
    response = client.post(reverse("licensing:closeout_close"), {"day": str(DAY)})
    closeout = CloseOut.objects.get()
    assert response.status_code == 302 and response.url == closeout.get_absolute_url()
    page = client.get(response.url).content.decode()
    assert "Deposit slip (PDF)" in page and "$87.00" in page
    # Closing again: a message, not a second close-out.
    again = client.post(reverse("licensing:closeout_close"), {"day": str(DAY)})
    assert again.status_code == 400 and "no receipts left to close" in again.content.decode()
    listing = client.get(reverse("licensing:closeout_list")).content.decode()
    assert closeout.get_absolute_url() in listing
    # Yesterday's receipt is still open, and listed as such.
    assert (DAY - timedelta(days=1)).isoformat() in listing


def test_bad_input_is_a_message_next_to_the_field(client_as, clerk):
    client = client_as(clerk)
    for value in ("not-a-date", "2026-13-45", "9" * 400):
        response = client.get(reverse("licensing:closeout_day"), {"day": value})
        assert response.status_code == 400 and "Enter a valid date." in response.content.decode()
    response = client.post(reverse("licensing:closeout_close"), {"day": "2026-12-03"})
    assert response.status_code == 400 and "future" in response.content.decode()


def test_a_clerk_sees_only_their_own_closeouts_and_an_administrator_every_clerks(
    day, north_branch, clerk, administrator, glencoe_clerk, client_as, officer, resident
):
    closeout = closeout_close(clerk=clerk, jurisdiction=north_branch, day=DAY, now=NOW)
    url = reverse("licensing:closeout_detail", args=[closeout.pk])
    dana = make_user("dana", CLERK, [north_branch], first_name="Dana")
    assert client_as(dana).get(url).status_code == 404
    assert client_as(glencoe_clerk).get(url).status_code == 404
    assert client_as(administrator).get(url).status_code == 200
    listing = client_as(administrator).get(reverse("licensing:closeout_list")).content.decode()
    assert url in listing and "Carol Clerk" in listing
    assert url not in client_as(dana).get(reverse("licensing:closeout_list")).content.decode()
    # An officer closes the fees they took at the pound, not a clerk's day.
    assert client_as(officer).get(url).status_code == 404
    assert url not in client_as(officer).get(reverse("licensing:closeout_list")).content.decode()
    assert client_as(resident).get(url).status_code == 403
    assert client_as(resident).get(reverse("licensing:closeout_list")).status_code == 403


def test_the_menu_offers_the_closeout_in_plain_words(client_as, clerk):
    page = client_as(clerk).get(reverse("accounts:staff_home")).content.decode()
    assert "Close out the day" in page and reverse("licensing:closeout_list") in page


def test_the_pages_stay_within_ten_queries(day, client_as, clerk, django_assert_max_num_queries):
    client = client_as(clerk)
    client.get(reverse("licensing:closeout_list"))  # the session and the user, once
    closeout = closeout_close(clerk=clerk, jurisdiction=day[0][0].jurisdiction, day=DAY, now=NOW)
    for url in (
        reverse("licensing:closeout_list"),
        reverse("licensing:closeout_day"),
        reverse("licensing:closeout_close") + f"?day={DAY}",
        closeout.get_absolute_url(),
    ):
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200, url


def test_an_officer_closes_the_fees_taken_at_the_pound(north_branch, officer, client_as):
    fee = _pay(north_branch, officer, "15.00")
    client = client_as(officer)
    page = client.get(reverse("licensing:closeout_day"), {"jurisdiction": north_branch.pk})
    assert page.status_code == 200 and "$15.00" in page.content.decode()
    response = client.post(
        reverse("licensing:closeout_close"), {"day": str(DAY), "jurisdiction": north_branch.pk}
    )
    closeout = CloseOut.objects.get(clerk=officer)
    assert response.status_code == 302 and closeout.cash_total == Decimal("15.00")
    assert list(closeout.entries.values_list("receipt_id", flat=True)) == [fee.pk]
    assert client.get(closeout.get_absolute_url()).status_code == 200
