"""The archive is written memory flat: ten times the rows, about the same peak memory
(rows are read in chunks with ``.iterator()`` and written straight into the ZIP)."""

import tempfile
import tracemalloc
from datetime import date

from base.roles import ADMINISTRATOR
from licensing.models import Animal, Owner
from records.services import archive
from tests.conftest import make_user
from tests.records.helpers import NOW


def _bulk(city, start, count):
    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=city,
            first_name=f"Bulk{i}",
            last_name="Filler" * 5,
            address_line=f"{1000 + i} Filler Road",
            city=city.short_name,
            postal_code="55056",
        )
        for i in range(start, start + count)
    )
    Animal.objects.bulk_create(
        Animal(
            jurisdiction=city,
            owner=o,
            species="dog",
            name=f"Filler {o.pk}",
            sex="female",
            date_of_birth=date(2020, 1, 1),
        )
        for o in owners
    )


def _peak(city, actor) -> tuple[int, dict]:
    with tempfile.TemporaryFile() as handle:
        tracemalloc.start()
        try:
            manifest = archive.archive_write(handle, cities=[city], requested_by=actor, now=NOW)
            return tracemalloc.get_traced_memory()[1], manifest
        finally:
            tracemalloc.stop()


def test_ten_times_the_rows_take_about_the_same_memory(north_branch, monkeypatch):
    monkeypatch.setattr(archive, "CHUNK_ROWS", 100)
    admin = make_user("ned", ADMINISTRATOR, [north_branch])
    _bulk(north_branch, 0, 300)
    _peak(north_branch, admin)  # warm up: imports, translations, caches read once
    small, manifest = _peak(north_branch, admin)
    assert manifest["tables"]["licensing.animal"]["rows"] == 300
    _bulk(north_branch, 300, 2700)
    large, manifest = _peak(north_branch, admin)
    assert manifest["tables"]["licensing.animal"]["rows"] == 3000
    assert manifest["tables"]["licensing.owner"]["rows"] == 3000
    assert large < small * 1.5, (small, large)
