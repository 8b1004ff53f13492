""", end to end in a browser: a Glencoe stray whose owner is unknown is taken in
on the Wednesday before Thanksgiving, the administrator prints the posted notice of
impounding (Glencoe 701 Subd. 14), and the owner redeems the dog at the counter.

IMP-03, IMP-04 (the hold: five business days after Wednesday, November 25, 2026 skip
Thanksgiving and the weekend and end Thursday, December 3), IMP-05 and G32 (the claim-by
date on the notice is the hold end, at city hall's closing hour), IMP-07 (release fee and
boarding, paid at the counter, on a numbered receipt).
"""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from base.roles import OFFICER
from impound.models import CaseStatus, ImpoundCase
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.impound.helpers import owned_dog, set_fee
from tests.pdf import pdf_text

MONDAY_AFTER = datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo("America/Chicago"))


@pytest.fixture
def clock():
    # Ticking, so the live server and the browser see time pass from that Monday.
    with time_machine.travel(MONDAY_AFTER, tick=True):
        yield


@pytest.mark.django_db(transaction=True)
def test_a_glencoe_stray_is_taken_in_posted_and_redeemed_at_the_counter(
    clock,
    settings,
    tmp_path,
    page,
    login_as,
    assert_accessible,
    glencoe,
    administrator,
    glencoe_clerk,
):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_pound(glencoe, name="McLeod County Pound")
    set_fee(glencoe, "boarding_daily", "10.00", "Animal boarding (per day)")
    dog = owned_dog(glencoe, resident=False, name="Biscuit", color="Black")
    # A nonresident's dog is released only after rabies immunization (Subd. 24): the
    # owner brings the certificate; the counter records it like any vaccination.
    from licensing.models import RabiesVaccination

    RabiesVaccination.objects.create(
        animal=dog, vaccinated_on=MONDAY_AFTER.date(), duration_years=1
    )
    officer = make_user("gwen", OFFICER, [glencoe], first_name="Gwen", last_name="Officer")

    # The officer takes the stray in (owner unknown).
    login_as(officer)
    page.goto("/impound/intake/")
    assert_accessible()
    page.get_by_label("Ground for impounding").select_option("dog_at_large")
    page.get_by_label("Placed in the pound at").fill("2026-11-25T14:05")
    page.get_by_label("Date seized").fill("2026-11-25")
    page.get_by_label("Where seized").fill("Hennepin Ave and 10th St")
    page.get_by_label("Received from (name)").fill("Pat Finder")
    page.get_by_label("Received from (address)").fill("12 Elm St, Glencoe")
    page.get_by_label("Species").select_option("dog")
    page.get_by_label("Breed").fill("Labrador mix")
    page.get_by_label("Sex").select_option("female")
    page.get_by_label("Color").fill("Black")
    page.get_by_label("Approximate age (months)").fill("24")
    with page.expect_navigation():
        page.get_by_role("button", name="Record intake").click()
    case = ImpoundCase.objects.get(jurisdiction=glencoe)
    assert case.hold_ends_on.isoformat() == "2026-12-03"
    expect(page.get_by_text("Glencoe 701 Subd. 13").first).to_be_visible()
    assert_accessible()
    page.context.clear_cookies()

    # The administrator issues and prints the posted notice of impounding.
    login_as(administrator)
    page.goto(f"/impound/{case.pk}/")
    with page.expect_navigation():
        page.get_by_role("button", name="Issue the notice of impounding").click()
    href = page.get_by_role("link", name="PDF").first.get_attribute("href")
    response = page.request.get(href)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = pdf_text(response.body())
    assert "NOTICE OF IMPOUNDING DOG OR CAT" in text
    assert "on or before 4:30 p.m. on the 3rd day of December, 2026" in text
    page.context.clear_cookies()

    # The owner comes to the counter: the clerk links the registry's dog and takes payment.
    login_as(glencoe_clerk)
    page.goto(f"/impound/{case.pk}/owner/?q={dog.owner.last_name}")
    page.locator(f"input[name=animal][value='{dog.pk}']").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Link this animal").click()
    page.goto(f"/impound/{case.pk}/redeem/")
    assert_accessible()
    page.get_by_label("Yes").check()
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_label("Amount tendered").fill("1000.00")
    with page.expect_navigation():
        page.get_by_role("button", name="Take payment and release").click()
    expect(page.locator("main [role=status].alert-success")).to_contain_text("receipt")
    expect(page.locator(".messages")).to_contain_text("change due")
    case.refresh_from_db()
    assert case.status == CaseStatus.REDEEMED
    receipt = case.redemption.receipt
    # Release fee $15.00 (Subd. 13(A)) + five days' boarding at the demo $10.00.
    assert [line.code for line in receipt.lines.all()] == ["release", "boarding_daily"]
    href = page.get_by_role("link", name="Receipt (PDF)").get_attribute("href")
    receipt_pdf = pdf_text(page.request.get(href).body())
    assert str(receipt.number) in receipt_pdf or f"{receipt.number:05d}" in receipt_pdf
