"""A clerk takes cash with change at the counter and closes the day:
the deposit slip's PDF carries the totals by payment method and the check numbers."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import CloseOut, Receipt
from licensing.services.assessment import license_assess, license_term
from licensing.services.documents import documents_for
from licensing.services.licenses import license_issue
from notices.services import document_pdf
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text


@pytest.fixture(autouse=True)
def _before_renewal_season():
    """These pages are about the current term: run on December 1, 2026, the day before
    North Branch's next-term sales open (Sec. 6-65(c)), whatever the real date.
    Ticking, so the live server and the browser see time pass."""
    with time_machine.travel(
        datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


def _dog(city, name):
    dog = AnimalFactory(jurisdiction=city, name=name, date_of_birth=date(2021, 4, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=timezone.localdate(), duration_years=3)
    return dog


def test_clerk_takes_cash_with_change_and_closes_the_day(
    page, login_as, assert_accessible, clerk, north_branch
):
    today = timezone.localdate()
    _start, expires_on, _renewal = license_term(jurisdiction=north_branch, on=today)
    TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, year=expires_on.year, last_number=20
    )
    # Earlier today the clerk took a check for another dog.
    by_check = _dog(north_branch, "Pepper")
    check_receipt = license_issue(
        animal=by_check,
        owner=by_check.owner,
        actor=clerk,
        on=today,
        method="check",
        reference="1041",
    ).receipt
    cash_dog = _dog(north_branch, "Scout")
    total = license_assess(animal=cash_dog, owner=cash_dog.owner, on=today).total
    tendered = (total + Decimal("7.00")).quantize(Decimal("0.01"))
    login_as(clerk)

    page.goto(reverse("licensing:counter_pay", args=[cash_dog.pk]))
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_role("button", name="Issue license").click()
    expect(page.get_by_text("Enter the amount of cash handed over.")).to_be_visible()
    page.get_by_label("Amount tendered").fill(f"{tendered}")
    page.get_by_role("button", name="Issue license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
    expect(page.get_by_text("Change due")).to_be_visible()
    expect(page.get_by_text("$7.00")).to_be_visible()
    assert_accessible()
    cash_receipt = Receipt.objects.exclude(pk=check_receipt.pk).get()
    assert cash_receipt.amount_tendered == tendered

    page.get_by_role("link", name="Close out the day").click()
    assert_accessible()
    page.get_by_role("link", name="Today's receipts").click()
    expect(page.get_by_role("cell", name="1041", exact=True)).to_be_visible()
    assert_accessible()
    page.get_by_role("link", name="Close the day").click()
    assert_accessible()
    assert not CloseOut.objects.exists()
    page.get_by_role("button", name="Confirm: close the day").click()
    expect(page.get_by_role("link", name="Deposit slip (PDF)")).to_be_visible()
    assert_accessible()

    closeout = CloseOut.objects.get()
    text = pdf_text(document_pdf(documents_for(closeout)["deposit_slip"]))
    assert f"Cash ${cash_receipt.total:.2f}" in text
    assert f"Check ${check_receipt.total:.2f}" in text and "Card $0.00" in text
    assert f"Total of all receipts ${cash_receipt.total + check_receipt.total:.2f}" in text
    assert "1041" in text
