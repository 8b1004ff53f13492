"""'s done-when, whole, in a real browser on a phone (375 px): a resident signs
up, confirms the address from Django's outbox, logs in, links their dog with its
license number, last name and ZIP code, and renews it with a rabies certificate upload;
the clerk approves the application and records the payment at the counter; the resident
downloads the receipt PDF, whose text shows its number and fee lines.

Rules: LIC-13 (NB Sec. 6-65(c): renewal opens December 2), LIC-05 and RAB-05 (the
certificate of a licensed veterinarian covers the term), FEE-01 (the license fee line),
REC-01 (a numbered receipt)."""

import re
from datetime import date

import pytest
import time_machine
from django.core import mail
from django.core.cache import cache
from playwright.sync_api import expect

from licensing.models import OnlineApplication
from licensing.services.tags import tag_stock_receive
from tests.licensing.online_helpers import RENEWAL_DAY, at
from tests.licensing.test_linking import issue_license
from tests.pdf import pdf_text
from tests.upload_files import pdf_bytes

PHONE = {"width": 375, "height": 812}
PASSWORD = "a walk by the river at noon"
PDF = pdf_bytes()
pytestmark = pytest.mark.slow


@pytest.fixture
def pepper(north_branch, clerk, settings, tmp_path):
    """Lena's dog, licensed at the counter last March; next year's tags are in stock."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()  # allauth's per-address mail limits start from zero
    with time_machine.travel(at(date(2026, 3, 2)), tick=False):
        owner, result = issue_license(north_branch, clerk, on=date(2026, 3, 2))
    tag_stock_receive(
        jurisdiction=north_branch,
        year=2027,
        first_number=1,
        last_number=50,
        received_on=date(2026, 11, 2),
        vendor="Minnesota Tag & Stamp",
        actor=clerk,
    )
    with time_machine.travel(at(RENEWAL_DAY), tick=True):
        yield owner, result


TOO_WIDE = """[...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > 376).slice(0, 8)
    .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def fits(page):
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > PHONE["width"]:  # name what is too wide in the failure
        print(page.evaluate(TOO_WIDE))
    assert wide <= PHONE["width"], f"{page.url} is {wide}px wide"


def test_sign_up_link_renew_approve_pay_and_download_the_receipt(
    page, login_as, assert_accessible, clerk, pepper
):
    owner, first = pepper
    page.set_viewport_size(PHONE)

    # Sign up and confirm the address from the mail.
    page.goto("/login/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Email").fill("lena@example.org")
    page.get_by_label("Username").fill("lena")
    page.get_by_label("Password").first.fill(PASSWORD)
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
    (message,) = mail.outbox
    page.goto(re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1))
    page.get_by_role("button", name="Confirm").click()

    # Log in and link the dog.
    page.get_by_label("Username").fill("lena")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Link your animals").click()
    page.get_by_label("License number or tag number").fill(first.license.number)
    page.get_by_label("Last name").fill("lindgren")
    page.get_by_label("ZIP code").fill("55056")
    page.get_by_role("button", name="Link").click()
    expect(page).to_have_url(re.compile(r"/my/animals/$"))
    expect(page.get_by_text("Renew the license before it expires on Dec 31, 2026.")).to_be_visible()
    assert_accessible()
    fits(page)

    page.goto(f"/my/animals/{first.license.animal_id}/")
    assert_accessible()
    fits(page)  # its license and vaccination tables become stacked rows

    # Renew with a new certificate uploaded.
    page.goto("/my/animals/")
    page.get_by_role("link", name="Renew online for Pepper").click()
    expect(page.get_by_text("License term Jan 1, 2027 to Dec 31, 2027.")).to_be_visible()
    page.get_by_label("Date of vaccination").fill("2026-11-20")
    page.get_by_label("3 years").check()
    page.get_by_label("Veterinarian", exact=True).fill("Dr. Ada Lind")
    page.get_by_label("Veterinarian's license number").fill("MN-4411")
    page.get_by_label("Certificate file").set_input_files(
        files=[{"name": "certificate.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.get_by_role("button", name="Send the application").click()
    expect(page.get_by_text("Waiting for the clerk").first).to_be_visible()
    assert_accessible()
    fits(page)
    application = OnlineApplication.objects.get(animal=first.license.animal)
    assert application.submitted_by.username == "lena" and application.certificate

    # The clerk approves and records the payment at the counter.
    page.context.clear_cookies()
    login_as(clerk)
    page.goto(f"/online/{application.pk}/")
    expect(page.get_by_text("Dr. Ada Lind")).to_be_visible()
    page.get_by_role("button", name="Approve").click()
    expect(page.get_by_text("Amount due: $18.00").first).to_be_visible()
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_label("Amount tendered").fill("20.00")
    page.get_by_role("button", name="Record payment and issue the license").click()
    expect(page.get_by_text("Cash tendered $20.00; change due $2.00.")).to_be_visible()
    expect(page.locator("[data-status='issued']")).to_be_visible()
    application.refresh_from_db()
    renewed = application.license
    assert renewed.renewal_of == first.license and renewed.expires_on == date(2027, 12, 31)

    # The resident downloads the receipt.
    page.context.clear_cookies()
    page.goto("/login/")
    page.get_by_label("Username").fill("lena@example.org")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/my/applications/{application.pk}/")
    expect(page.get_by_text(f"License {renewed.number} is issued.")).to_be_visible()
    assert_accessible()
    fits(page)
    receipt = renewed.receipt
    link = page.get_by_role("link", name=f"Receipt {receipt.number} (PDF)").first
    response = page.context.request.get(link.get_attribute("href"))
    assert response.ok
    text = pdf_text(response.body())
    assert f"No. {receipt.number}" in text
    for line in receipt.lines.all():
        assert line.description in text and f"{line.amount}" in text
