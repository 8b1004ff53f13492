"""Making import batches in tests."""

import csv
import io

from django.core.files.base import ContentFile

from records.models import ImportBatch, ImportLayout


def csv_bytes(rows: list[dict]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def make_batch(city, actor, data: bytes, *, mapping, layout=ImportLayout.SHEET, source="OldDog"):
    batch = ImportBatch(
        jurisdiction=city,
        source_name=source,
        layout=layout,
        original_name="old.csv",
        mapping=mapping,
        created_by=actor,
    )
    batch.file.save("old.csv", ContentFile(data), save=False)
    batch.save()
    return batch
