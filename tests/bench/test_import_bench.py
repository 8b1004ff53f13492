"""Benchmark: importing a city's spreadsheet, rows per second.

Builds a CSV of N rows in a layout of its own (one owner, dog, rabies certificate and
license per row, an owner in every second row with a second dog), then times the dry
run and the import (``import_apply``, the Celery task's body: chunks of 500 rows, one
transaction each) and prints rows/s for both. Every suite runs it with 100 rows; `make
bench` (BENCH_SIZE=full) with 100,000; BENCH_IMPORT_ROWS=N sets N outright.
"""

import csv
import io
import os
import resource
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from licensing.models import License, Owner
from records.models import ImportStatus
from records.services.imports import dry_run, import_apply, import_queue
from tests.records.import_helpers import make_batch

ROWS = {"small": 100, "full": 100_000}
NOW = datetime(2026, 12, 2, 10, tzinfo=ZoneInfo("America/Chicago"))  # rabies dates all past

pytestmark = [pytest.mark.bench]

COLUMNS = {
    "owner_name": "Owner",
    "address_line": "Street",
    "postal_code": "Zip",
    "phone": "Phone",
    "animal_id": "Old ID",
    "animal_name": "Pet Name",
    "species": "Kind",
    "sex": "M/F",
    "date_of_birth": "DOB",
    "license_number": "Lic No",
    "license_year": "Lic Yr",
    "tag_number": "Tag #",
    "receipt_number": "Rcpt",
    "vaccinated_on": "Rabies Date",
    "rabies_tag_number": "Rabies Tag",
    "veterinarian_name": "Vet",
    "veterinarian_license": "Vet Lic",
}
MAPPING = {"columns": COLUMNS, "date_order": "dmy", "name_order": "last_first"}


def _row(n: int) -> dict:
    owner = (n + 1) // 2  # rows 2k-1 and 2k: one owner, two dogs
    return {
        "Owner": f"Bench{owner}, Jane",
        "Street": f"{owner} Elm Street",
        "Zip": "55056",
        "Phone": f"651-555-{owner % 10000:04d} x{n % 90 + 10}",
        "Old ID": f"OLD-{n}",
        "Pet Name": f"Dog{n}",
        "Kind": "Canine" if n % 2 else "Dog",
        "M/F": ("M", "F", "MN", "FS")[n % 4],
        "DOB": f"{1 + n % 28}/{1 + n % 12}/{2015 + n % 9}" if n % 2 else "2019-06-01",
        "Lic No": f"2026-{n:06d}",
        "Lic Yr": "2026",
        "Tag #": str(n),
        "Rcpt": str(100_000 + n),
        "Rabies Date": f"{1 + n % 28}/{1 + n % 10}/2026",
        "Rabies Tag": f"R-{n}",
        "Vet": "Dr. Ada Vet",
        "Vet Lic": "MN-4471",
    }


def _csv(rows: int) -> bytes:
    """The file, written row by row (a list of every row's dict would be the test's own
    peak of memory, hiding the import's)."""
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(_row(1)))
    writer.writeheader()
    for n in range(1, rows + 1):
        writer.writerow(_row(n))
    return out.getvalue().encode()


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.django_db
def test_an_import_of_n_rows_in_rows_per_second(
    north_branch, administrator, stopwatch, bench_size, django_capture_on_commit_callbacks
):
    rows = int(os.environ.get("BENCH_IMPORT_ROWS") or ROWS[bench_size])
    data = _csv(rows)
    batch = make_batch(north_branch, administrator, data, mapping=MAPPING, source="PetData")

    before = _peak_mb()
    with time_machine.travel(NOW, tick=True):
        with stopwatch(f"dry run, {rows:,} rows") as dry:
            dry_run(batch)
        assert (batch.status, batch.created_count, batch.error_count) == (
            ImportStatus.DRY_RUN,
            rows,
            0,
        ), batch.report["rows"][:3]
        assert not License.objects.exists()

        with django_capture_on_commit_callbacks(execute=False):
            import_queue(batch)  # the worker's task is not sent: it runs below, timed
        with stopwatch(f"import, {rows:,} rows") as applied:
            batch = import_apply(batch.pk)

    assert batch.status == ImportStatus.DONE
    assert (batch.processed_rows, batch.created_count, batch.error_count) == (rows, rows, 0)
    assert License.objects.filter(jurisdiction=north_branch).count() == rows
    assert Owner.objects.filter(jurisdiction=north_branch).count() == (rows + 1) // 2
    print(
        f"[bench] import of {rows:,} rows: dry run {rows / dry.seconds:,.0f} rows/s, "
        f"import {rows / applied.seconds:,.0f} rows/s; peak memory {before:,.0f} MB before, "
        f"{_peak_mb():,.0f} MB after"
    )
