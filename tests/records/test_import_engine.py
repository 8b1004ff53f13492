"""The import engine: a spreadsheet in a layout of its own, dry run,
apply, idempotent second run, duplicates for a clerk, history kept, numbers continued,
undo and its refusal."""

from datetime import date

import pytest
import time_machine
from django.db import transaction

from kernel.models import NumberSeries
from kernel.numbers import allocate, year_number
from licensing.models import (
    Animal,
    License,
    Owner,
    RabiesVaccination,
    Tag,
    TagStatus,
)
from ordinance.refusals import Refused
from records.models import ImportIssue, ImportRecord, ImportStatus
from records.services.imports import dry_run, import_apply, import_queue, import_undo
from tests.records.helpers import NOW
from tests.records.import_helpers import csv_bytes, make_batch

pytestmark = pytest.mark.django_db

COLUMNS = {
    "owner_name": "Owner",
    "address_line": "Addr",
    "postal_code": "Zip",
    "phone": "Tel",
    "animal_id": "PetNo",
    "animal_name": "Pet",
    "species": "Type",
    "sex": "Sex",
    "date_of_birth": "Born",
    "microchip": "Chip",
    "license_number": "Lic#",
    "expires_on": "Expires",
    "issued_on": "Sold",
    "tag_number": "Tag",
    "receipt_number": "Rcpt",
    "vaccinated_on": "Rabies",
    "vaccination_expires": "RabiesDue",
    "veterinarian_name": "Vet",
    "veterinarian_license": "VetLic",
}
MAPPING = {"columns": COLUMNS, "date_order": "mdy", "name_order": "last_first"}


def _row(n, **over):
    row = {
        "Owner": f"Doe{n}, Jane",
        "Addr": f"{n} Elm Street",
        "Zip": "55056",
        "Tel": f"(651) 555-01{n:02d} x12",
        "PetNo": f"P{n}",
        "Pet": f"Rex{n}",
        "Type": "Canine",
        "Sex": "MN",
        "Born": "3/4/2020",
        "Chip": "",
        "Lic#": f"2026-{900 + n:04d}",
        "Expires": "31-Dec-2026",
        "Sold": "46024",  # an Excel serial day: 2026-01-02
        "Tag": str(500 + n),
        "Rcpt": str(7000 + n),
        "Rabies": "2025-06-01",
        "RabiesDue": "6/1/2028",
        "Vet": "Dr. Vet",
        "VetLic": "MN-1",
    }
    row.update(over)
    return row


def _run(batch, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        import_queue(batch)
    with time_machine.travel(NOW, tick=False):
        return import_apply(batch.pk)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def sheet():
    rows = [_row(n) for n in range(1, 4)]
    rows.append(_row(4, Born="2/30/2020"))  # no such day: an error, nothing written
    rows.append(_row(5, Zip="5505"))  # ZIP as the owner form says it
    return csv_bytes(rows)


def test_the_dry_run_says_what_and_why_and_writes_nothing(north_branch, administrator, sheet):
    batch = make_batch(north_branch, administrator, sheet, mapping=MAPPING)
    with time_machine.travel(NOW, tick=False):
        dry_run(batch)
    assert batch.status == ImportStatus.DRY_RUN
    assert (batch.total_rows, batch.created_count, batch.error_count) == (5, 3, 2)
    assert not Owner.objects.exists() and not License.objects.exists()
    assert not ImportRecord.objects.exists()
    rows = {r["row"]: r for r in batch.report["rows"]}
    assert rows[2]["actions"] == {
        "owner": "created",
        "animal": "created",
        "vaccination": "created",
        "license": "created",
    }
    assert "not a date" in rows[5]["why"][0]
    assert rows[6]["why"] == ["ZIP code: Enter a ZIP code such as 55056 or 55056-1234."]
    assert ImportIssue.objects.filter(batch=batch, dry_run=True).count() == 2


def test_apply_keeps_history_and_the_series_continue(
    north_branch, administrator, sheet, django_capture_on_commit_callbacks
):
    batch = _run(
        make_batch(north_branch, administrator, sheet, mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert batch.status == ImportStatus.DONE
    assert (batch.created_count, batch.error_count, batch.processed_rows) == (3, 2, 5)
    owner = Owner.objects.get(last_name="Doe1")
    assert (owner.first_name, owner.phone) == ("Jane", "651-555-0101 ext. 12")
    animal = Animal.objects.get(name="Rex1")
    assert (animal.sex, animal.sterilized, animal.date_of_birth) == ("male", True, date(2020, 3, 4))
    lic = License.objects.get(number="2026-0901")
    assert (lic.term_start, lic.expires_on, lic.issued_on) == (
        date(2026, 1, 1),
        date(2026, 12, 31),
        date(2026, 1, 2),
    )
    assert lic.receipt is None  # no receipt invented
    tag = Tag.objects.get(license=lic)
    assert (tag.number, tag.year, tag.status) == (501, 2026, TagStatus.ISSUED)
    assert RabiesVaccination.objects.get(animal=animal).next_due_on == date(2028, 6, 1)
    assert lic.history.first().history_change_reason == batch.change_reason
    # The counter's next numbers follow the imported ones (LIC-06, REC-01).
    with transaction.atomic():
        assert allocate(north_branch, "receipt") == 7004
        assert year_number(north_branch, "license-dog", 2026) == "2026-0904"
    series = dict(
        NumberSeries.objects.filter(jurisdiction=north_branch).values_list("series", "next_number")
    )
    assert series == {"license-dog": 905, "receipt": 7005}


def test_a_second_run_updates_never_duplicates(
    north_branch, administrator, sheet, django_capture_on_commit_callbacks
):
    _run(
        make_batch(north_branch, administrator, sheet, mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    changed = csv_bytes([_row(1, Pet="Rexy"), _row(2), _row(3)])
    second = _run(
        make_batch(north_branch, administrator, changed, mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert (second.created_count, second.updated_count, second.matched_count) == (0, 1, 2)
    assert Owner.objects.count() == 3 and Animal.objects.count() == 3
    assert License.objects.count() == 3 and Tag.objects.count() == 3
    assert Animal.objects.filter(name="Rexy").count() == 1


def test_ambiguous_owners_go_to_a_clerk(
    north_branch, administrator, clerk, django_capture_on_commit_callbacks
):
    for _ in range(2):
        Owner.objects.create(
            jurisdiction=north_branch,
            first_name="Jane",
            last_name="Doe1",
            address_line="1 Elm St.",
            city="North Branch",
            postal_code="55056",
        )
    batch = _run(
        make_batch(north_branch, administrator, csv_bytes([_row(1)]), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert batch.skipped_count == 1 and not Animal.objects.exists()
    issue = ImportIssue.objects.get(batch=batch)
    assert issue.kind == ImportIssue.Kind.DUPLICATE and "2 owners" in issue.message


def test_one_existing_owner_at_the_same_address_is_matched(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    owner = Owner.objects.create(
        jurisdiction=north_branch,
        first_name="Jane",
        last_name="Doe1",
        address_line="1 Elm St.",
        city="North Branch",
        postal_code="55056",
    )
    _run(
        make_batch(north_branch, administrator, csv_bytes([_row(1)]), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert Owner.objects.count() == 1
    assert Animal.objects.get().owner == owner


def test_undo_voids_the_licenses_and_removes_the_rest_until_later_work_touches_it(
    north_branch, administrator, sheet, django_capture_on_commit_callbacks
):
    batch = _run(
        make_batch(north_branch, administrator, sheet, mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    batch = import_undo(batch=batch, actor=administrator)
    assert batch.status == ImportStatus.UNDONE
    # issued numbers are never deleted nor reused (LIC-14): void, with the undo as reason
    assert set(License.objects.values_list("status", flat=True)) == {"void"}
    assert set(Tag.objects.values_list("status", flat=True)) == {TagStatus.VOID}
    assert License.history.filter(history_change_reason__startswith="Undo").count() == 3

    other = csv_bytes([_row(n) for n in range(11, 14)])
    again = _run(
        make_batch(north_branch, administrator, other, mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert again.created_count == 3
    animal = Animal.objects.get(name="Rex11")
    animal.color = "Brown"
    animal.save()  # a clerk's later change
    with pytest.raises(Refused, match="changed afterwards"):
        import_undo(batch=again, actor=administrator)
    assert License.objects.filter(status="active").count() == 3
