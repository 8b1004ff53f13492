"""The clerk's day on December 2, 2026, end to end: North
Branch's next-term sales are open (Sec. 6-65(c)); the clerk renews a dog for 2027 and
takes cash with change, issues a duplicate of this year's lost tag paid by check and
prints its receipt from the license page, then closes the day; the deposit slip's PDF
carries the totals by payment method and the check number."""

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import time_machine
from django.urls import reverse
from playwright.sync_api import expect

from licensing.models import CloseOut, License, Receipt
from licensing.services.documents import documents_for
from licensing.services.licenses import license_issue
from notices.services import document_pdf
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")


def test_a_clerks_december_2_renewal_duplicate_tag_and_close_out(
    page, login_as, assert_accessible, clerk, north_branch
):
    for year in (2026, 2027):
        TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=year, last_number=40)
    dog = AnimalFactory(jurisdiction=north_branch, name="Maple", date_of_birth=date(2021, 4, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 9, 1), duration_years=3)
    with time_machine.travel(datetime(2026, 2, 10, 10, tzinfo=CHICAGO), tick=False):
        current = license_issue(
            animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 2, 10), method="cash"
        ).license
    # Given no more than 24 months before the new license's expiry (NB Sec. 6-61).
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 11, 20), duration_years=3)

    with time_machine.travel(datetime(2026, 12, 2, 9, tzinfo=CHICAGO), tick=True):
        login_as(clerk)
        # Renew for next year, cash with change.
        page.goto(reverse("licensing:counter_pay", args=[dog.pk]))
        expect(page.get_by_test_id("term-note")).to_contain_text("North Branch Sec. 6-65(c)")
        page.get_by_role("radio", name=re.compile(r"^Next term")).check()
        page.get_by_label("Payment method").select_option("cash")
        page.get_by_label("Amount tendered").fill("50.00")
        page.get_by_role("button", name="Issue license").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
        expect(page.get_by_text("Change due")).to_be_visible()
        renewed = License.objects.get(animal=dog, term_start=date(2027, 1, 1))
        cash = Receipt.objects.get(regarding=renewed)
        assert cash.amount_tendered == 50 and cash.change_due == 50 - cash.total

        # This year's tag was lost: a duplicate, paid by check, the fee shown first.
        page.goto(reverse("licensing:license_detail", args=[current.pk]))
        page.get_by_role("link", name="Lost tag: duplicate").click()
        expect(page.locator("main")).to_contain_text("North Branch Sec. 6-")
        page.get_by_label("Payment method").select_option("check")
        page.get_by_label("Check number or card last 4 digits").fill("3317")
        page.get_by_role("button", name=re.compile("Issue|Record|duplicate", re.I)).click()
        expect(page.get_by_role("link", name=re.compile("Open and print receipt"))).to_be_visible()
        duplicate = Receipt.objects.get(regarding=current, issued_at__date=date(2026, 12, 2))
        expect(
            page.get_by_role("link", name=f"Open and print receipt {duplicate.number}")
        ).to_be_visible()
        assert_accessible()

        # Every receipt that touched the license is on its page, each printable.
        page.goto(reverse("licensing:license_detail", args=[current.pk]))
        receipts = page.locator("main table").first
        first = Receipt.objects.get(regarding=current, issued_at__date=date(2026, 2, 10))
        expect(receipts).to_contain_text(f"Receipt {first.number}")
        expect(receipts).to_contain_text(f"Receipt {duplicate.number}")
        pdf_link = page.get_by_role("link", name=f"Receipt {duplicate.number} (PDF)")
        printed = page.request.get(pdf_link.get_attribute("href"))
        assert printed.ok
        receipt_text = pdf_text(printed.body())
        assert f"{duplicate.total:.2f}" in receipt_text and "3317" in receipt_text

        # Close the day: the deposit slip has the totals by method and the check number.
        page.goto(reverse("licensing:closeout_day"))
        page.get_by_role("link", name="Close the day").click()
        page.get_by_role("button", name="Confirm: close the day").click()
        expect(page.get_by_role("link", name="Deposit slip (PDF)")).to_be_visible()
        assert_accessible()

    closeout = CloseOut.objects.get()
    slip = pdf_text(document_pdf(documents_for(closeout)["deposit_slip"]))
    assert f"Cash ${cash.total:.2f}" in slip
    assert f"Check ${duplicate.total:.2f}" in slip and "Card $0.00" in slip
    assert "3317" in slip
    assert f"Total of all receipts ${cash.total + duplicate.total:.2f}" in slip
