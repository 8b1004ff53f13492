"""Tag sales through a clinic, in a real browser: the clerk issues a block of North
Branch's tags to a clinic; the clinic sells a license from it on its own certificate
(the counter's checks and fee lines with their sections, the fee collected at the
clinic); the receipt's number follows the city's series with no gap, between the
counter's receipts before and after it; the monthly statement's PDF text lists the
sale and the unsold tags. axe passes on every page on the way.

Rules: REC-01, REC-02 (NB Secs. 6-61, 6-63), LIC-04, LIC-14, RAB-01..05 (NB Sec. 6-77)."""

from datetime import date

import pytest
import time_machine
from playwright.sync_api import expect

from clinics.models import ClinicSale, ConsignmentBlock
from licensing.models import Receipt
from licensing.services.licenses import license_issue
from tests.clinics.consign_helpers import NOW, sellable_dog, stock
from tests.clinics.helpers import make_clinic, make_vet
from tests.e2e.conftest import axe_violations
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.pdf import pdf_text


def _counter_sale(city, clerk, name):
    dog = AnimalFactory(jurisdiction=city, name=name)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=NOW.date(), method="cash"
    ).receipt


@pytest.fixture
def world(north_branch, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    with time_machine.travel(NOW, tick=True):
        stock(north_branch, clerk)
        clinic = make_clinic([north_branch])
        vet = make_vet(clinic)
        dog, certificate = sellable_dog(north_branch, clinic, vet)
        before = _counter_sale(north_branch, clerk, "Counter first")
        yield clinic, vet, dog, before


def _menu(page, name):
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def _accessible(page):
    violations = axe_violations(page)
    assert not violations, f"axe on {page.url}: {violations}"


@pytest.mark.django_db(transaction=True)
def test_the_clinic_sells_from_its_block_and_the_statement_lists_it(
    world, page, login_as, clerk, north_branch
):
    clinic, vet, dog, before = world

    # The clerk moves tags 41-50 to the clinic: same numbers, out of the counter's stock.
    login_as(clerk)
    _menu(page, "Tags at clinics")
    _accessible(page)
    page.get_by_label("Clinic").select_option(label=clinic.name)
    page.get_by_label("Year stamped on the tags").fill("2026")
    page.get_by_label("First tag number").fill("41")
    page.get_by_label("Last tag number").fill("50")
    page.get_by_label("Note").fill("Spring vaccination clinic")
    page.get_by_role("button", name="Issue the tags").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tags 41–50 (2026)")
    expect(page.locator("#held-tags")).to_have_text("41–50")
    _accessible(page)
    assert ConsignmentBlock.objects.get().clinic == clinic

    # The clinic sells a license on its own certificate, from its block.
    page.context.clear_cookies()
    login_as(vet)
    _menu(page, "Sell a license")
    expect(page.locator("#held-tags")).to_contain_text("2026: tags 41–50 (10 tags)")
    _accessible(page)
    page.get_by_role("link", name=f"Sell a license for {dog.name}").click()
    checks = page.get_by_role("list", name="Checks")
    expect(checks).to_contain_text("Rabies vaccination")
    expect(checks).to_contain_text("North Branch Sec. 6-61")  # LIC-05, its certificate
    fees = page.get_by_role("table")
    expect(fees).to_contain_text("Fees to collect for the city")
    expect(fees).to_contain_text("Res.")  # the fee's authority (FEE-01)
    _accessible(page)
    page.get_by_role("button", name="Sell the license").click()  # not confirmed yet
    expect(page.locator("main")).to_contain_text("Collect the fee first, then confirm it here.")
    _accessible(page)
    page.get_by_label("The clinic collected the fee shown for the city.").check()
    page.get_by_role("button", name="Sell the license").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("sold")
    sale = ClinicSale.objects.get()
    assert sale.receipt.number == before.number + 1  # the city's next number
    expect(page.locator("#receipt-number")).to_have_text(str(sale.receipt.number))
    expect(page.locator("main")).to_contain_text("41 (2026)")
    _accessible(page)
    receipt = page.request.get(page.get_by_role("link", name="Receipt (PDF)").get_attribute("href"))
    assert receipt.ok and receipt.headers["content-type"] == "application/pdf"
    text = pdf_text(receipt.body())
    assert f"Receipt {sale.receipt.number}" in text and "Clinic-collected" in text
    assert "Tag number: 41, year 2026" in text

    # The counter's next receipt follows: one series, no gap (REC-01).
    after = _counter_sale(north_branch, clerk, "Counter after")
    numbers = list(
        Receipt.objects.filter(jurisdiction=north_branch)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert numbers == list(range(numbers[0], after.number + 1))
    assert [before.number, sale.receipt.number, after.number] == numbers[-3:]

    # The monthly statement, and its PDF: the sale with its receipt, the unsold tags.
    _menu(page, "Sell a license")
    page.get_by_role("link", name="North Branch, March 2026").click()
    expect(page.locator("#statement-sales")).to_contain_text(str(sale.receipt.number))
    expect(page.locator("#statement-unsold")).to_contain_text("2026: tags 42–50 (9 tags)")
    _accessible(page)
    pdf = page.request.get(page.get_by_role("link", name="PDF").get_attribute("href"))
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    text = pdf_text(pdf.body())
    assert "Monthly statement of licenses sold at the clinic" in text
    assert str(sale.receipt.number) in text and sale.license.number in text
    assert dog.name in text
    assert "Unsold tags at the month's end" in text and "2026: tags 42–50 (9 tags)" in text
    assert f"${sale.receipt.total}" in text and "Total due to the city" in text
