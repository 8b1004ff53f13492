"""A clerk licenses a new dog for a new owner at the counter, in three screens."""

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import Receipt
from licensing.services.assessment import license_term
from notices.models import IssuedDocument
from notices.services import document_pdf
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text


def test_clerk_licenses_a_new_dog_for_a_new_owner(
    page, login_as, assert_accessible, clerk, north_branch
):
    today = timezone.localdate()
    _start, expires_on, _renewal = license_term(jurisdiction=north_branch, on=today)
    TagStockFactory(
        jurisdiction=north_branch,
        recorded_by=clerk,
        year=expires_on.year,
        first_number=501,
        last_number=520,
    )
    login_as(clerk)

    page.goto(reverse("licensing:counter_start"))
    assert_accessible()
    page.get_by_label("First name").fill("Dana")
    page.get_by_label("Last name").fill("Berg")
    page.get_by_label("Street address").fill("12 Elm Street")
    page.locator("#id_city").fill("North Branch")
    page.get_by_label("ZIP code").fill("55056")
    page.get_by_role("button", name="Create owner and continue").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Dana Berg")
    assert_accessible()
    page.get_by_label("Species").select_option("dog")
    page.locator("#id_animal-name").fill("Scout")
    page.locator("#id_animal-breed").fill("Beagle")
    page.locator("#id_animal-color").fill("Tricolor")
    page.locator("#id_animal-sex").select_option("male")
    page.locator("#id_animal-date_of_birth").fill("2022-04-01")
    page.get_by_role("button", name="Add animal").click()

    # An out-of-date certificate: refused with the dates and the section.
    old = today - timedelta(days=365 * 3)
    page.get_by_label("Date vaccinated").fill(old.isoformat())
    page.locator("#id_vacc-veterinarian_name").fill("Dr. Holm")
    page.get_by_label("Veterinarian license number").fill("MN-1")
    page.get_by_role("button", name="Record vaccination").click()
    checks = page.get_by_role("list", name="Checks")
    expect(checks).to_contain_text("does not qualify")
    expect(checks).to_contain_text("North Branch Sec. 6-61")
    expect(page.get_by_role("link", name="Continue to fee and payment")).to_have_count(0)
    assert_accessible()

    page.get_by_label("Date vaccinated").fill(today.isoformat())
    page.locator("#id_vacc-veterinarian_name").fill("Dr. Holm")
    page.get_by_label("Veterinarian license number").fill("MN-1")
    page.get_by_role("button", name="Record vaccination").click()
    page.get_by_role("link", name="Continue to fee and payment").click()

    expect(page.get_by_role("table")).to_contain_text("Total")
    assert_accessible()
    page.get_by_label("Payment method").select_option("cash")
    page.get_by_label("Amount tendered").fill("100.00")  # cash: the change is shown
    page.get_by_role("button", name="Issue license").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
    expect(page.get_by_role("link", name="Receipt (PDF)")).to_be_visible()
    assert_accessible()

    receipt = Receipt.objects.get()
    text = pdf_text(document_pdf(IssuedDocument.objects.get(kind="receipt")))
    assert f"Receipt number: {receipt.number}" in text
    assert f"Tag number: 501, year {expires_on.year}" in text
    for line in receipt.lines.all():
        assert line.description in text and f"${line.amount}" in text
