"""The import is set-based per chunk: a chunk reads what its rows look
up in a few queries and writes in bulk, so the queries do not grow with the rows; rows
later in a chunk, and in later chunks, see what earlier rows made; an owner matched by
name and address only gets what the city's record lacks."""

import pytest
import time_machine
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext

from licensing.models import Animal, License, Owner, Premises, Tag
from licensing.selectors import registry_search
from records.models import ImportBatch, ImportIssue, ImportStatus
from records.services.imports import dry_run, engine
from tests.records.helpers import NOW
from tests.records.import_helpers import csv_bytes, make_batch
from tests.records.test_import_engine import MAPPING, _row, _run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _queries_of_dry_run(city, actor, rows: int) -> int:
    batch = make_batch(
        city, actor, csv_bytes([_row(n) for n in range(1, rows + 1)]), mapping=MAPPING
    )
    with time_machine.travel(NOW, tick=False), CaptureQueriesContext(connection) as ctx:
        dry_run(batch)
    assert (batch.created_count, batch.error_count) == (rows, 0), batch.report["rows"][:2]
    return len(ctx.captured_queries)


def test_a_chunk_costs_the_same_queries_for_ten_rows_as_for_sixty(north_branch, administrator):
    # The dry run's event reads the batch's content type once per process: read it first.
    ContentType.objects.get_for_model(ImportBatch, for_concrete_model=False)
    few = _queries_of_dry_run(north_branch, administrator, 10)
    many = _queries_of_dry_run(north_branch, administrator, 60)
    assert many == few
    assert few <= 40  # reads per kind of lookup, one INSERT per model, the batch's report


def test_an_import_costs_a_few_queries_per_chunk(
    north_branch, administrator, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(engine, "CHUNK_ROWS", 20)
    rows = [_row(n) for n in range(1, 61)]  # three chunks
    batch = make_batch(north_branch, administrator, csv_bytes(rows), mapping=MAPPING)
    with CaptureQueriesContext(connection) as ctx:
        batch = _run(batch, django_capture_on_commit_callbacks)
    assert (batch.status, batch.created_count) == (ImportStatus.DONE, 60)
    assert len(ctx.captured_queries) <= 3 * 45  # per chunk, not per row (was ~30 a row)
    assert License.objects.count() == Tag.objects.count() == 60


def test_rows_later_in_a_chunk_see_what_earlier_rows_made(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    rows = [
        _row(1, Chip="985112345678901"),
        # another owner's dog with the same microchip: a clerk decides
        _row(2, Chip="985112345678901"),
        # the same owner and address as row 1, a second dog: one owner, one premises
        _row(3, Owner="Doe1, Jane", Addr="1 Elm Street", Tel="(651) 555-0101 x12"),
        # the tag row 1 was issued
        _row(4, Tag="501"),
    ]
    batch = _run(
        make_batch(north_branch, administrator, csv_bytes(rows), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    # row 3 (a second dog of row 1's owner) creates its dog; its owner is row 1's
    assert (batch.created_count, batch.skipped_count, batch.error_count) == (2, 1, 1)
    duplicate = ImportIssue.objects.get(batch=batch, row_number=3)
    assert duplicate.kind == ImportIssue.Kind.DUPLICATE and "another owner" in duplicate.message
    error = ImportIssue.objects.get(batch=batch, row_number=5)
    assert "already issued to license 2026-0901" in error.message
    owner = Owner.objects.get()
    assert sorted(owner.animals.values_list("name", flat=True)) == ["Rex1", "Rex3"]
    assert Premises.objects.count() == 1
    assert {a.premises_id for a in Animal.objects.all()} == {Premises.objects.get().pk}


def test_later_chunks_find_what_earlier_chunks_wrote(
    north_branch, administrator, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(engine, "CHUNK_ROWS", 1)
    rows = [
        _row(1),
        _row(2, Owner="Doe1, Jane", Addr="1 Elm Street", Tel="(651) 555-0101 x12"),
        _row(3, Tag="501"),
    ]
    batch = _run(
        make_batch(north_branch, administrator, csv_bytes(rows), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert (batch.created_count, batch.error_count) == (2, 1)
    assert Owner.objects.count() == 1 and Premises.objects.count() == 1
    assert "already issued to license 2026-0901" in ImportIssue.objects.get(batch=batch).message


def test_bulk_written_owners_are_found_by_phone_name_and_address(
    north_branch, administrator, clerk, django_capture_on_commit_callbacks
):
    _run(
        make_batch(north_branch, administrator, csv_bytes([_row(7)]), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert Owner.objects.get().phone_digits == "651555010712"
    hits = registry_search(user=clerk, query="651-555-0107")
    assert [h.owner.last_name for h in hits] == ["Doe7"]
    # and by name and address, from the search table the bulk write keeps in step
    for query in ("Doe7", "7 Elm Street"):
        assert [h.owner.last_name for h in registry_search(user=clerk, query=query)] == ["Doe7"]


def test_an_owner_matched_by_name_gets_only_what_the_record_lacks(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    def owner(last, **fields):
        return Owner.objects.create(
            jurisdiction=north_branch,
            first_name="Jane",
            last_name=last,
            address_line=f"{last[-1]} Elm Street",
            city="North Branch",
            postal_code="55056",
            **fields,
        )

    bare = owner("Doe1")
    kept = owner("Doe2", phone="651-555-9999", email="jane@example.com")
    rows = [_row(1), _row(2)]
    batch = _run(
        make_batch(north_branch, administrator, csv_bytes(rows), mapping=MAPPING),
        django_capture_on_commit_callbacks,
    )
    assert batch.error_count == 0
    bare.refresh_from_db()
    kept.refresh_from_db()
    assert bare.phone == "651-555-0101 ext. 12"  # filled: the city had none
    assert bare.history.get(history_type="~").history_change_reason == batch.change_reason
    assert (kept.phone, kept.email) == ("651-555-9999", "jane@example.com")  # not overwritten
    assert Owner.objects.count() == 2


def test_a_certificate_without_the_vets_license_number_is_imported_with_a_note(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    from licensing.models import RabiesVaccination

    rows = [_row(1, VetLic=""), _row(2)]
    batch = make_batch(north_branch, administrator, csv_bytes(rows), mapping=MAPPING)
    with time_machine.travel(NOW, tick=False):
        dry_run(batch)
    listed = {r["row"]: r for r in batch.report["rows"]}
    assert listed[2]["status"] == "created"
    assert "Veterinarian license number: not in the old records" in listed[2]["why"][0]
    batch = _run(batch, django_capture_on_commit_callbacks)
    assert (batch.created_count, batch.error_count, batch.skipped_count) == (2, 0, 0)
    vaccination = RabiesVaccination.objects.get(animal__name="Rex1")
    assert (vaccination.veterinarian_name, vaccination.veterinarian_license) == ("Dr. Vet", "")
    note = ImportIssue.objects.get(batch=batch, dry_run=False)
    assert (note.row_number, note.kind, note.field) == (
        2,
        ImportIssue.Kind.NOTE,
        "veterinarian_license",
    )
    # Another missing field of the certificate still keeps the row out, in the form's words.
    other = make_batch(
        north_branch, administrator, csv_bytes([_row(3, Vet="", VetLic="")]), mapping=MAPPING
    )
    with time_machine.travel(NOW, tick=False):
        dry_run(other)
    assert other.error_count == 1
    assert other.report["rows"][0]["why"][0].startswith("Veterinarian: ")
