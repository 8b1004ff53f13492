"""Write a city's data as one ZIP archive, memory flat.

Layout (README "Export"):

    manifest.json          format and version, installation, cities, time, rows per table
    data_dictionary.csv    table, column, type, nullable, references, name, help text
    data/<table>.csv       one CSV per table (``registry.tables()``), history tables too
    files/<stored path>    every archived document and uploaded file the rows name
    files/manifest.csv     each file: table, row id, column, SHA-256, size, check result
    files/SHA256SUMS       the same hashes in ``sha256sum -c`` form

Rows are read in primary-key order with ``.iterator()`` in chunks and written straight
into the archive's entry; files are copied in blocks. Nothing holds a whole table.
The CSV is meant to be read back by an import: a header row of column names (foreign keys
as ``<name>_id`` holding the other table's ``id``), ISO 8601 dates and times (times with
their UTC offset), ``true``/``false``, JSON as JSON text, an empty field for null.
"""

import csv
import hashlib
import io
import json
import tempfile
import zipfile
from datetime import date, datetime, time
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.core.files.storage import default_storage
from django.db import models

from notices.models import IssuedDocument

from .. import registry

FORMAT = "animal-ordinance-export"
FORMAT_VERSION = 1
CHUNK_ROWS = 2000
CHUNK_BYTES = 1024 * 1024
FILE_COLUMNS = ["path", "table", "id", "column", "sha256", "size", "recorded_sha256", "check"]
DICTIONARY_COLUMNS = [
    "table",
    "column",
    "type",
    "nullable",
    "references",
    "verbose_name",
    "help_text",
    "choices",
]


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def _natural_keys():
    """Ids that differ between installations, written as names an import can look up."""
    groups = dict(Group.objects.values_list("pk", "name"))

    def content_type(pk):
        ct = ContentType.objects.get_for_id(pk)  # cached by Django after the first read
        return f"{ct.app_label}.{ct.model}"

    return {ContentType: content_type, Group: groups.__getitem__}


def _encoder(field, natural):
    """How one column's value is written: the same text whatever the database."""
    if field.is_relation and field.related_model in natural:
        lookup = natural[field.related_model]
        return lambda v: "" if v is None else lookup(v)
    if isinstance(field, models.JSONField):
        return lambda v: "" if v is None else _json(v)
    if isinstance(field, models.BooleanField):
        return lambda v: "" if v is None else ("true" if v else "false")
    return _plain


def _plain(value):
    if value is None:
        return ""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def _column_type(field) -> str:
    if field.is_relation:
        if field.related_model is ContentType:
            return "content type (app_label.model)"
        if field.related_model is Group:
            return "role (group name)"
        return "reference"
    if isinstance(field, models.FileField):
        return "file (path under files/)"
    kinds = (
        (models.BooleanField, "boolean (true/false)"),
        (models.DateTimeField, "datetime (ISO 8601 with UTC offset)"),
        (models.DateField, "date (ISO 8601)"),
        (models.TimeField, "time (ISO 8601)"),
        (models.DecimalField, "decimal"),
        ((models.IntegerField, models.AutoField), "integer"),
        (models.FloatField, "number"),
        (models.JSONField, "json"),
        (models.DurationField, "duration (seconds)"),
    )
    for kind, name in kinds:
        if isinstance(field, kind):
            return name
    return "text"


def _dictionary_rows(table):
    for field in table.columns:
        references = ""
        if field.is_relation and field.related_model not in (ContentType, Group):
            references = registry.model_label(field.related_model)
        choices = "; ".join(f"{value}={label}" for value, label in (field.flatchoices or []))
        yield [
            table.name,
            field.attname,
            _column_type(field),
            "true" if field.null else "false",
            references,
            str(field.verbose_name),
            str(field.help_text or ""),
            choices,
        ]


class _Text:
    """A CSV writer on a ZIP entry opened for writing (UTF-8, RFC 4180 line ends)."""

    def __init__(self, archive: zipfile.ZipFile, name: str):
        self.raw = archive.open(name, "w", force_zip64=True)
        self.text = io.TextIOWrapper(self.raw, encoding="utf-8", newline="")
        self.writer = csv.writer(self.text)

    def __enter__(self):
        return self.writer

    def __exit__(self, *exc):
        self.text.close()  # flushes and closes the entry


def _write_table(archive, table, ids, states, natural, refs) -> int:
    """One table's CSV; the files its rows name go to ``refs`` for later. Returns rows."""
    fields = table.columns
    encoders = [_encoder(f, natural) for f in fields]
    pk_at = [f.attname for f in fields].index(table.model._meta.pk.attname)
    file_at = [(i, f.name) for i, f in enumerate(fields) if isinstance(f, models.FileField)]
    recorded_at = None
    if table.model is IssuedDocument:
        recorded_at = [f.name for f in fields].index("sha256")
    count = 0
    rows = table.queryset(ids, states).values_list(*(f.attname for f in fields))
    with _Text(archive, f"data/{table.name}.csv") as writer:
        writer.writerow([f.attname for f in fields])
        for row in rows.iterator(chunk_size=CHUNK_ROWS):
            writer.writerow([encode(value) for encode, value in zip(encoders, row, strict=True)])
            for i, column in file_at:
                if row[i]:
                    recorded = row[recorded_at] if recorded_at is not None else ""
                    refs.writerow([row[i], table.name, row[pk_at], column, recorded])
            count += 1
    return count


def _copy_file(archive, name: str) -> tuple[str, int] | None:
    """Copy one stored file into ``files/``; its SHA-256 and size, None if it is gone."""
    if not default_storage.exists(name):
        return None
    digest, size = hashlib.sha256(), 0
    with default_storage.open(name, "rb") as source:
        with archive.open(f"files/{name}", "w", force_zip64=True) as target:
            while block := source.read(CHUNK_BYTES):
                digest.update(block)
                size += len(block)
                target.write(block)
    return digest.hexdigest(), size


def _copy_text(archive, name: str, source) -> None:
    source.seek(0)
    with archive.open(name, "w", force_zip64=True) as target:
        while block := source.read(CHUNK_BYTES):
            target.write(block.encode())


def _write_files(archive, refs) -> dict:
    """Every file the rows named, once each, with its check against the recorded hash.
    The two lists are kept in temporary files while the files are copied (a ZIP takes
    one entry at a time) and added last."""
    totals = {"files": 0, "verified": 0, "mismatched": 0, "missing": 0}
    copied: dict[str, tuple[str, int] | None] = {}  # path -> (hash, size): names only
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as listing,
        tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as sums,
    ):
        writer = csv.writer(listing)
        writer.writerow(FILE_COLUMNS)
        for name, table, pk, column, recorded in csv.reader(refs):
            if name not in copied:
                copied[name] = _copy_file(archive, name)
                if copied[name]:
                    sums.write(f"{copied[name][0]}  {name}\n")
                    totals["files"] += 1
            found = copied[name]
            if found is None:
                check = "missing"
            elif recorded:
                check = "verified" if recorded == found[0] else "mismatched"
            else:
                check = ""
            if check:
                totals[check] += 1
            sha, size = found or ("", "")
            writer.writerow([f"files/{name}", table, pk, column, sha, size, recorded, check])
        _copy_text(archive, "files/manifest.csv", listing)
        _copy_text(archive, "files/SHA256SUMS", sums)
    return totals


def _manifest(*, cities, requested_by, now, counts, tables, files) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "installation": {"name": settings.SITE_NAME, "url": settings.SITE_URL},
        "generated_at": now.isoformat(),
        "requested_by": {"id": requested_by.pk, "username": requested_by.get_username()},
        "cities": [
            {"id": c.pk, "slug": c.slug, "name": c.name, "state": c.state, "profile": c.profile_key}
            for c in cities
        ],
        "tables": {
            t.name: {
                "file": f"data/{t.name}.csv",
                "rows": counts[t.name],
                "name": str(t.model._meta.verbose_name),
                "history_of": registry.model_label(t.history_of) if t.history_of else None,
            }
            for t in tables
        },
        "event_log": "data/ordinance.event.csv",
        "rule_values": "data/ordinance.rulevalue.csv",
        "fee_schedule": "data/ordinance.feescheduleentry.csv",
        "data_dictionary": "data_dictionary.csv",
        "files": {"manifest": "files/manifest.csv", "checksums": "files/SHA256SUMS", **files},
        "excluded_tables": registry.EXCLUDED,
        "columns_left_out": {k: sorted(v) for k, v in registry.COLUMNS_LEFT_OUT.items()},
        "csv": {
            "encoding": "UTF-8",
            "dialect": "RFC 4180, comma, header row",
            "null": "empty field",
            "dates": "ISO 8601; date-times with their UTC offset",
            "booleans": "true/false",
            "references": "<name>_id holds the id column of the referenced table",
        },
    }


def archive_write(target, *, cities, requested_by, now) -> dict:
    """Write the archive of ``cities`` to the binary file ``target``; the manifest."""
    ids = [c.pk for c in cities]
    states = sorted({c.state for c in cities})
    tables = registry.tables()
    natural = _natural_keys()
    counts = {}
    with (
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive,
        tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as refs,
    ):
        ref_writer = csv.writer(refs)
        for table in tables:
            counts[table.name] = _write_table(archive, table, ids, states, natural, ref_writer)
        with _Text(archive, "data_dictionary.csv") as writer:
            writer.writerow(DICTIONARY_COLUMNS)
            for table in tables:
                writer.writerows(_dictionary_rows(table))
        refs.seek(0)
        files = _write_files(archive, refs)
        files["documents_pending"] = IssuedDocument.objects.filter(
            jurisdiction__in=ids, sha256=""
        ).count()
        manifest = _manifest(
            cities=cities,
            requested_by=requested_by,
            now=now,
            counts=counts,
            tables=tables,
            files=files,
        )
        archive.writestr("manifest.json", json.dumps(manifest, indent=2, ensure_ascii=False))
    return manifest
