"""The export rows of tests/test_every_page.py's page table.

The world's administrator (both cities) has exported North Branch; the export is written,
so its page offers the download. Administrators only; another city's administrator gets
404 (tests/records/test_views.py checks exports that cover both cities)."""

from dataclasses import dataclass


@dataclass
class RecordsWorld:
    export: object  # North Branch's, ready
    batch: object = None  # a North Branch import, dry-run


def build_records_world(*, nb, actor, now) -> RecordsWorld:
    from records.services.exports import export_build, export_request

    export = export_request(actor=actor, cities=[nb], now=now)
    export_build(export_pk=export.pk, now=now)  # the worker's part (no commit in a test)
    export.refresh_from_db()
    return RecordsWorld(export=export, batch=_import_batch(nb, actor))


def _import_batch(nb, actor):
    """A small spreadsheet from "Old system", mapped and dry-run: one good row, one not."""
    from records.services.imports import dry_run
    from tests.records.import_helpers import csv_bytes, make_batch

    rows = [
        {"Owner": "Doe, Jane", "Addr": "9 Elm St", "Zip": "55056", "Pet": "Rex", "Type": "dog"},
        {"Owner": "Roe, Rick", "Addr": "8 Elm St", "Zip": "5505", "Pet": "Max", "Type": "cat"},
    ]
    mapping = {
        "columns": {
            "owner_name": "Owner",
            "address_line": "Addr",
            "postal_code": "Zip",
            "animal_name": "Pet",
            "species": "Type",
        },
        "date_order": "mdy",
        "name_order": "last_first",
    }
    return dry_run(make_batch(nb, actor, csv_bytes(rows), mapping=mapping, source="Old system"))


RECORDS_PAGES = {
    "records:export_list": (lambda w: [], {}),
    "records:export_detail": (lambda w: [w.records.export.pk], {}),
    "records:export_build_now": (lambda w: [w.records.export.pk], {"*": 405}),
    "records:export_download": (lambda w: [w.records.export.pk], {}),
    "records:import_list": (lambda w: [], {}),
    "records:import_detail": (lambda w: [w.records.batch.pk], {}),
    "records:import_start": (lambda w: [w.records.batch.pk], {"*": 405}),
    "records:import_run_now": (lambda w: [w.records.batch.pk], {"*": 405}),
    "records:import_progress": (lambda w: [w.records.batch.pk], {}),
    "records:import_cancel": (lambda w: [w.records.batch.pk], {"*": 405}),
    "records:import_undo": (lambda w: [w.records.batch.pk], {"*": 405}),
    "records:import_issues": (lambda w: [w.records.batch.pk], {}),
}
