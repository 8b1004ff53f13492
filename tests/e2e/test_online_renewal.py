"""'s done-when, part B, in a real browser at 375 px wide: a resident whose
account is linked renews their dog online with a certificate upload; the clerk approves
it and records the payment at the counter; the resident downloads the receipt PDF, whose
text shows its number and fee lines. axe passes on every new page.

Rules: LIC-13 (NB Sec. 6-65(c): renewal open from December 2), LIC-05 (the rabies
certificate covers the term), RAB-05 (a licensed veterinarian), FEE-01 (the fee line)."""

import pytest
import time_machine
from playwright.sync_api import expect

from licensing.models import OnlineApplication
from tests.licensing.online_helpers import RENEWAL_DAY, at, licensed_dog, stock
from tests.pdf import pdf_text
from tests.upload_files import pdf_bytes

PHONE = {"width": 375, "height": 800}
PDF = pdf_bytes()


@pytest.fixture
def renewal_day():
    with time_machine.travel(at(RENEWAL_DAY), tick=True):
        yield


@pytest.fixture
def biscuit(renewal_day, north_branch, resident, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    resident.email = "rita@example.org"
    resident.save()
    stock(north_branch, clerk)
    return licensed_dog(north_branch, resident, clerk)


def switch_user(page, login_as, user):
    page.context.clear_cookies()
    return login_as(user)


def test_resident_renews_online_clerk_approves_and_records_payment_resident_gets_receipt(
    page, login_as, assert_accessible, resident, clerk, biscuit
):
    page.set_viewport_size(PHONE)
    login_as(resident)
    page.goto("/my/animals/")
    expect(page.get_by_text("Renew the license before it expires on Dec 31, 2026.")).to_be_visible()
    assert_accessible()
    page.get_by_role("link", name="Renew online for Biscuit").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("License for Biscuit")
    expect(page.get_by_text("License term Jan 1, 2027 to Dec 31, 2027.")).to_be_visible()
    assert_accessible()
    page.get_by_label("Date of vaccination").fill("2026-11-20")
    page.get_by_label("3 years").check()
    page.get_by_label("Veterinarian", exact=True).fill("Dr. Ada Lind")
    page.get_by_label("Veterinarian's license number").fill("MN-4411")
    page.get_by_label("Clinic").fill("Lakes Veterinary Clinic")
    page.get_by_label("Rabies tag number").fill("R-2026-881")
    page.get_by_label("Certificate file").set_input_files(
        files=[{"name": "certificate.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Send the application").click()
    expect(page.get_by_text("Waiting for the clerk").first).to_be_visible()
    assert_accessible()
    application = OnlineApplication.objects.get(animal=biscuit)

    switch_user(page, login_as, clerk)
    page.goto("/online/")
    assert_accessible()
    page.get_by_role("link", name="Biscuit").click()
    expect(page.get_by_text("Dr. Ada Lind")).to_be_visible()
    expect(page.get_by_role("link", name="Download the certificate")).to_be_visible()
    assert_accessible()
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_text("Amount due: $18.00").first).to_be_visible()
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_label("Amount tendered").fill("20.00")
    page.get_by_role("button", name="Record payment and issue the license").click()
    expect(page.get_by_text("Cash tendered $20.00; change due $2.00.")).to_be_visible()
    expect(page.locator("[data-status='issued']")).to_be_visible()
    application.refresh_from_db()
    license = application.license
    expect(page.get_by_role("heading", name=f"License {license.number} issued")).to_be_visible()
    assert_accessible()

    switch_user(page, login_as, resident)
    page.goto(f"/my/applications/{application.pk}/")
    expect(page.get_by_text(f"License {license.number} is issued.")).to_be_visible()
    assert_accessible()
    receipt = license.receipt
    link = page.get_by_role("link", name=f"Receipt {receipt.number} (PDF)").first
    response = page.context.request.get(link.get_attribute("href"))
    assert response.ok
    text = pdf_text(response.body())
    assert f"No. {receipt.number}" in text
    for line in receipt.lines.all():
        assert line.description in text and f"{line.amount}" in text
