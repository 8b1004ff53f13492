"""A clerk licenses a new dog for a new owner at the counter, in three screens."""

import re
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import time_machine
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import License, Receipt
from licensing.services.assessment import license_term
from licensing.services.licenses import license_issue
from notices.models import IssuedDocument
from notices.services import document_pdf
from notices.tasks import render_documents
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")


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


def test_clerk_renews_a_north_branch_dog_for_next_year_on_december_2(
    page, login_as, assert_accessible, clerk, north_branch
):
    """on December 2, 2026 the next term's sales open (NB Sec. 6-65(c)); the
    clerk chooses the 2027 term, and the license carries a 2027 tag."""
    for year in (2026, 2027):
        TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=year, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, name="Juniper", date_of_birth=date(2022, 5, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    with time_machine.travel(datetime(2026, 3, 2, 10, tzinfo=CHICAGO), tick=False):
        license_issue(animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 3, 2), method="cash")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 11, 20))

    with time_machine.travel(datetime(2026, 12, 2, 10, tzinfo=CHICAGO), tick=True):
        login_as(clerk)
        page.goto(reverse("licensing:counter_animal", args=[dog.owner.pk]) + f"?animal={dog.pk}")
        checks = page.get_by_role("list", name="Checks")
        expect(checks).to_contain_text("Next term, Jan 1, 2027 to Dec 31, 2027")
        assert_accessible()
        page.get_by_role("link", name="Continue to fee and payment").click()
        note = page.get_by_test_id("term-note")
        expect(note).to_contain_text("expires in 29 days")
        expect(note).to_contain_text("North Branch Sec. 6-65(c)")
        current = page.get_by_role("radio", name=re.compile(r"^Current term"))
        expect(current).to_have_accessible_name(re.compile("expires in 29 days"))
        expect(current).not_to_be_checked()
        page.get_by_role("radio", name=re.compile(r"^Next term")).check()
        page.get_by_label("Payment method").select_option("cash")
        page.get_by_label("Amount tendered").fill("100.00")
        assert_accessible()
        page.get_by_role("button", name="Issue license").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
        assert_accessible()

    renewed = License.objects.get(animal=dog, term_start=date(2027, 1, 1))
    assert renewed.expires_on == date(2027, 12, 31) and renewed.current_tag.year == 2027
    assert not renewed.late_penalty


def test_clerk_prints_the_receipt_at_once_and_the_certificate_when_the_worker_is_done(
    page, login_as, assert_accessible, clerk, north_branch, monkeypatch
):
    """The receipt is printable on the confirmation at once (the print lays it out on the
    spot); the certificate and the 80 mm slip say "being prepared" until the worker has
    laid them out, then appear without a reload (the page polls). The test plays the
    worker."""
    queued = []
    monkeypatch.setattr(render_documents, "delay", queued.append)
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, name="Pepper")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 2, 1))

    with time_machine.travel(datetime(2026, 3, 2, 10, tzinfo=CHICAGO), tick=True):
        login_as(clerk)
        page.goto(reverse("licensing:counter_pay", args=[dog.pk]))
        page.get_by_label("Payment method").select_option("cash")
        page.get_by_label("Amount tendered").fill("100.00")
        page.get_by_role("button", name="Issue license").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
        expect(page.locator('[data-pending="license_certificate"]')).to_have_text("being prepared")
        expect(page.locator('[data-pending="receipt_80mm"]')).to_be_visible()
        assert_accessible()

        receipt_link = page.get_by_role("link", name="Receipt (PDF)")
        printed = page.request.get(receipt_link.get_attribute("href"))
        assert printed.ok and printed.headers["content-type"] == "application/pdf"
        assert "Pepper" in pdf_text(printed.body())
        assert IssuedDocument.objects.get(kind="license_certificate").is_pending

        assert len(queued) == 1
        render_documents(queued[0])  # the worker
        expect(page.locator("[data-pending]")).to_have_count(0, timeout=15_000)
        certificate = page.get_by_role("link", name="License certificate (PDF)")
        body = page.request.get(certificate.get_attribute("href")).body()
        assert "Pepper" in pdf_text(body)
        archived = IssuedDocument.objects.get(kind="license_certificate")
        assert not archived.is_pending and document_pdf(archived) == body
