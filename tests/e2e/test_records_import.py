"""'s done-when in a real browser: an administrator of North Branch uploads
a 1,000-row XLSX in a layout no one here wrote (one "Last, First" owner column, phones
with extensions, dates day first, ISO or Excel serial days), maps its columns, dry-runs
it, sees the errors of two wrong choices (the "Kind" and "M/F" columns swapped, slashed
dates read month first), fixes them, dry-runs again, imports it with the progress bar;
then a clerk finds an imported dog by its old tag number in the registry search and
renews it at the counter, and the receipt takes the next number after the old system's
receipts. axe passes on every import page on the way.

Rules: LIC-06 (the license series continues), REC-01 (the receipt series continues),
NB Sec. 6-65(c) (the next term's sales open on December 2)."""

import io
import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from openpyxl import Workbook
from playwright.sync_api import expect

from base.roles import ADMINISTRATOR
from licensing.models import Animal, License, Owner, RabiesVaccination, Receipt, Tag
from records.models import ImportBatch, ImportStatus
from tests.conftest import make_user
from tests.e2e.conftest import axe_violations
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
ROWS = 1000
HEADERS = [
    "Owner",
    "Street",
    "Town",
    "Zip",
    "Phone",
    "Pet Name",
    "Kind",
    "Breed",
    "Colour",
    "M/F",
    "DOB",
    "Lic No",
    "Tag #",
    "Lic Yr",
    "Rabies Date",
    "Rabies Tag",
    "Vet",
    "Vet Lic",
    "Old ID",
    "Rcpt",
]
SURNAMES = ["Lindqvist", "Okafor", "Brandt", "Moreau", "Haugen", "Nakamura", "Olsen", "Quist"]
FIRST = ["Astrid", "Emeka", "Greta", "Luc", "Solveig", "Kenji", "Maren", "Tove"]
BREEDS = ["Labrador", "Beagle", "Collie", "Mixed", "Poodle"]
STREETS = ["Elm Street", "Maple Ave", "Lake Rd", "Birch Lane"]
KINDS = ["Dog", "Canine", "K9"]
SEXES = ["M", "F", "MN", "FS"]
TAG_BASE = 3000  # the old system's tags 3001..4000
RECEIPT_BASE = 51000  # its receipts 51001..52000


def _dob(n: int):
    """Mixed shapes: ISO text, day-first slashes (some days past 12), an Excel serial."""
    year, month, day = 2015 + n % 9, 1 + n % 12, 1 + n % 28
    shape = n % 3
    if shape == 0:
        return f"{year}-{month:02d}-{day:02d}"
    if shape == 1:
        return f"{day}/{month}/{year}"
    return (date(year, month, day) - date(1899, 12, 30)).days  # a number cell


def _row(n: int) -> list:
    return [
        f"{SURNAMES[n % 8]}{n}, {FIRST[n % 8]}",
        f"{100 + n} {STREETS[n % 4]}",
        "North Branch",
        "55056",
        f"651-555-{n:04d}" + (f" x{n % 90 + 10}" if n % 2 else ""),
        f"Pet{n}",
        KINDS[n % 3],
        BREEDS[n % 5],
        "Black" if n % 2 else "Tan",
        SEXES[n % 4],
        _dob(n),
        f"2026-{n:04d}",
        TAG_BASE + n,
        2026,
        f"{1 + n % 28}/{1 + n % 10}/2026",  # day first, Jan..Oct 2026
        f"R-{n}",
        "Dr. Ada Vet",
        "MN-4471",
        f"OLD-{n:05d}",
        RECEIPT_BASE + n,
    ]


def _xlsx() -> bytes:
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Dogs")
    sheet.append(HEADERS)
    for n in range(1, ROWS + 1):
        sheet.append(_row(n))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _accessible(page):
    violations = axe_violations(page)
    assert not violations, f"axe on {page.url}: {violations}"


@pytest.fixture
def world(north_branch, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    admin = make_user("adele", ADMINISTRATOR, [north_branch], first_name="Adele")
    TagStockFactory(
        jurisdiction=north_branch, recorded_by=admin, year=2027, first_number=1, last_number=50
    )
    upload = tmp_path / "petdata-2026.xlsx"
    upload.write_bytes(_xlsx())
    return admin, clerk, upload


@pytest.mark.django_db(transaction=True)
def test_an_administrator_imports_a_thousand_rows_and_a_clerk_renews_one(
    world, page, login_as, north_branch
):
    admin, clerk, upload = world
    with time_machine.travel(datetime(2026, 12, 2, 10, tzinfo=CHICAGO), tick=True):
        login_as(admin)
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Data import").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Data import")
        _accessible(page)
        page.get_by_label("Source").fill("PetData")
        page.get_by_label("What one row of the file is").select_option("sheet")
        page.locator("#id_file").set_input_files(str(upload))
        page.get_by_role("button", name="Upload and map the columns").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("from PetData")
        _accessible(page)

        # The headers guessed: the owner in one column, street, town, tag, rabies date.
        expect(page.get_by_label("Owner's name, in one column")).to_have_value("Owner")
        expect(page.get_by_label("Tag number", exact=True)).to_have_value("Tag #")
        expect(page.get_by_label("Date vaccinated against rabies")).to_have_value("Rabies Date")
        # The rest by hand, with "Kind" and "M/F" swapped by mistake.
        page.get_by_label("Species").select_option("M/F")
        page.get_by_label("Sex", exact=True).select_option("Kind")
        page.get_by_label("License year").select_option("Lic Yr")
        page.get_by_label("Animal's id in the old system").select_option("Old ID")
        page.get_by_label("Receipt number in the old system").select_option("Rcpt")
        page.get_by_role("button", name="Dry run").click(no_wait_after=True)
        expect(page.get_by_text("Dry run done: nothing was written.")).to_be_visible(
            timeout=120_000
        )
        _accessible(page)
        batch = ImportBatch.objects.get()
        assert batch.status == ImportStatus.DRY_RUN
        assert batch.created_count == 0 and batch.error_count == ROWS
        issues = page.get_by_role("list").filter(has_text="is not a sex")
        expect(issues.first).to_be_visible()
        assert not Owner.objects.exists() and not License.objects.exists()

        # Fixed: the two columns the right way round, slashed dates day first.
        page.get_by_label("Species").select_option("Kind")
        page.get_by_label("Sex", exact=True).select_option("M/F")
        page.get_by_label("Dates written with slashes").select_option("dmy")
        page.get_by_role("button", name="Dry run").click(no_wait_after=True)
        # The first run's "done" stays on screen until the page comes back: wait for its
        # errors to go, not for the words already there.
        expect(issues.first).not_to_be_visible(timeout=120_000)
        expect(page.get_by_text("Dry run done: nothing was written.")).to_be_visible(
            timeout=120_000
        )
        batch.refresh_from_db()
        assert (batch.created_count, batch.error_count) == (ROWS, 0), batch.report["rows"][:3]
        expect(page.get_by_role("main")).to_contain_text(f"would create {ROWS} rows")
        _accessible(page)
        assert not Owner.objects.exists()

        # The import, with its progress bar; "Run it now" when no worker takes it.
        page.get_by_role("button", name="Import", exact=True).click(no_wait_after=True)
        run_now = page.get_by_role("button", name="Run it now")
        bar = page.get_by_role("progressbar")
        expect(bar).to_be_visible(timeout=180_000)
        if run_now.count():
            _accessible(page)
            run_now.click(no_wait_after=True)
        expect(page.get_by_text(f"{ROWS} of {ROWS} rows")).to_be_visible(timeout=180_000)
        expect(page.get_by_role("button", name="Undo this import")).to_be_visible(timeout=180_000)
        _accessible(page)
        batch.refresh_from_db()
        assert batch.status == ImportStatus.DONE
        assert (batch.created_count, batch.error_count) == (ROWS, 0)
        assert License.objects.filter(jurisdiction=north_branch).count() == ROWS
        owner = Owner.objects.get(last_name="Okafor433")
        assert (owner.first_name, owner.phone) == ("Emeka", "651-555-0433 ext. 83")
        dog = Animal.objects.get(name="Pet433")
        # Row 433: "Canine", "F", DOB "14/2/2016" and rabies "14/4/2026", day first.
        assert (dog.species, dog.sex, dog.date_of_birth) == ("dog", "female", date(2016, 2, 14))
        assert RabiesVaccination.objects.get(animal=dog).vaccinated_on == date(2026, 4, 14)

        # The counter, after: a clerk finds the dog by its old tag and renews it.
        page.context.clear_cookies()
        login_as(clerk)
        page.goto("/search/")
        box = page.get_by_label(re.compile("Owner name, address, phone"))
        box.press_sequentially(str(TAG_BASE + 433), delay=40)
        results = page.locator("#search-results")
        expect(results).to_contain_text("Emeka Okafor433")
        results.get_by_role("link", name="Emeka Okafor433").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Emeka Okafor433")
        page.get_by_role("link", name="Pet433").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Pet433")
        main = page.get_by_role("main")
        expect(main).to_contain_text("2026-0433")
        expect(main).to_contain_text("Imported from PetData")
        page.get_by_role("link", name="Issue or renew a license").click()
        expect(page.get_by_role("list", name="Checks")).to_contain_text(
            "Next term, Jan 1, 2027 to Dec 31, 2027"
        )
        page.get_by_role("link", name="Continue to fee and payment").click()
        page.get_by_role("radio", name=re.compile(r"^Next term")).check()
        page.get_by_label("Payment method").select_option("cash")
        page.get_by_label("Amount tendered").fill("100.00")
        page.get_by_role("button", name="Issue license").click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
        next_receipt = str(RECEIPT_BASE + ROWS + 1)
        expect(page.get_by_role("main")).to_contain_text(next_receipt)

    renewed = License.objects.get(animal=dog, term_start=date(2027, 1, 1))
    assert renewed.receipt.number == int(next_receipt)
    assert Receipt.objects.count() == 1  # the import invented none
    assert Tag.objects.get(license=renewed).year == 2027
