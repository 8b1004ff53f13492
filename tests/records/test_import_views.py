"""The import pages: administrators of the city only, the upload
checked whole, mapping with preview, templates, dry run, start, progress, undo, CSV."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.roles import ADMINISTRATOR
from licensing.models import License, Owner
from records.models import ImportBatch, ImportStatus, MappingTemplate
from tests.conftest import make_user
from tests.records.import_helpers import csv_bytes

pytestmark = pytest.mark.django_db

ROWS = [
    {
        "Name": "Doe, Jane",
        "Street": "9 Elm St",
        "ZIP": "55056",
        "Phone": "651.555.0147 ext 4",
        "Dog": "Rex",
        "Kind": "K9",
        "Lic": "2025-0042",
        "Year": "2025",
        "Tag": "77",
    },
    {
        "Name": "Roe, Rick",
        "Street": "8 Elm St",
        "ZIP": "5505",
        "Phone": "",
        "Dog": "Max",
        "Kind": "dog",
        "Lic": "",
        "Year": "",
        "Tag": "",
    },
]


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def nb_admin(north_branch):
    return make_user("ned", ADMINISTRATOR, [north_branch], first_name="Ned")


def _upload(client, content, name="old.csv"):
    from ordinance.models import Jurisdiction

    return client.post(
        reverse("records:import_list"),
        {
            "city": Jurisdiction.objects.get(slug__contains="north").pk,
            "source_name": "Clerk sheet",
            "layout": "sheet",
            "file": SimpleUploadedFile(name, content),
        },
    )


def test_the_whole_flow_in_the_browser_s_requests(
    client, nb_admin, north_branch, django_assert_max_num_queries
):
    client.force_login(nb_admin)
    response = _upload(client, csv_bytes(ROWS))
    assert response.status_code == 302, response.content.decode()[:2000]
    batch = ImportBatch.objects.get()
    detail = reverse("records:import_detail", args=[batch.pk])
    with django_assert_max_num_queries(10):
        page = client.get(detail)
    text = page.content.decode()
    # the guesses: ZIP, Phone, Street ... ; the preview shows the split name and phone
    assert 'value="ZIP" selected' in text
    data = {
        "col_owner_name": "Name",
        "col_address_line": "Street",
        "col_postal_code": "ZIP",
        "col_phone": "Phone",
        "col_animal_name": "Dog",
        "col_species": "Kind",
        "col_license_number": "Lic",
        "col_license_year": "Year",
        "col_tag_number": "Tag",
        "date_order": "mdy",
        "name_order": "last_first",
    }
    client.post(detail, {**data, "action": "save", "template_name": "Clerk's layout"})
    assert MappingTemplate.objects.get().mapping["columns"]["owner_name"] == "Name"
    page = client.get(detail)
    assert "651-555-0147 ext. 4" in page.content.decode()  # the preview, as it will land
    assert "Jane" in page.content.decode()
    client.post(detail, {**data, "action": "dry_run"})
    batch.refresh_from_db()
    assert batch.status == ImportStatus.DRY_RUN and batch.error_count == 1
    assert not Owner.objects.exists()
    with django_assert_max_num_queries(10):
        page = client.get(detail)
    assert "Enter a ZIP code such as 55056" in page.content.decode()
    csv_page = client.get(reverse("records:import_issues", args=[batch.pk]))
    assert b"Enter a ZIP code" in csv_page.content
    client.post(reverse("records:import_start", args=[batch.pk]))
    batch.refresh_from_db()
    assert batch.status == ImportStatus.QUEUED
    progress = client.get(reverse("records:import_progress", args=[batch.pk]))
    assert b"hx-trigger" in progress.content
    client.post(reverse("records:import_run_now", args=[batch.pk]))  # no worker in tests
    batch.refresh_from_db()
    assert batch.status == ImportStatus.DONE
    lic = License.objects.get(number="2025-0042")
    page = client.get(reverse("licensing:license_detail", args=[lic.pk]))
    assert "Imported from Clerk sheet" in page.content.decode()
    client.post(reverse("records:import_undo", args=[batch.pk]))
    assert set(License.objects.values_list("status", flat=True)) == {"void"}


def test_a_file_that_is_not_a_spreadsheet_is_refused_next_to_the_field(client, nb_admin):
    client.force_login(nb_admin)
    response = _upload(client, b"%PDF-1.4 not a sheet\x00", name="sheet.csv")
    assert response.status_code == 400
    assert "not a CSV or Excel" in response.content.decode()


def test_another_city_s_batch_is_404_and_a_clerk_is_refused(client, nb_admin, glencoe, clerk):
    client.force_login(nb_admin)
    _upload(client, csv_bytes(ROWS))
    batch = ImportBatch.objects.get()
    other = make_user("gus", ADMINISTRATOR, [glencoe])
    client.force_login(other)
    assert client.get(reverse("records:import_detail", args=[batch.pk])).status_code == 404
    client.force_login(clerk)
    assert client.get(reverse("records:import_list")).status_code == 403


def test_an_xlsx_upload_reads_like_a_csv(client, nb_admin):
    from io import BytesIO

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(list(ROWS[0]))
    for row in ROWS:
        sheet.append(list(row.values()))
    out = BytesIO()
    book.save(out)
    client.force_login(nb_admin)
    assert _upload(client, out.getvalue(), name="old.xlsx").status_code == 302
    batch = ImportBatch.objects.get()
    assert batch.mapping["columns"]["postal_code"] == "ZIP"
