"""The export rows of tests/test_every_page.py's page table (issue 19 item 2).

The world's administrator (both cities) has exported North Branch; the export is written,
so its page offers the download. Administrators only; another city's administrator gets
404 (tests/records/test_views.py checks exports that cover both cities)."""

from dataclasses import dataclass


@dataclass
class RecordsWorld:
    export: object  # North Branch's, ready


def build_records_world(*, nb, actor, now) -> RecordsWorld:
    from records.services.exports import export_build, export_request

    export = export_request(actor=actor, cities=[nb], now=now)
    export_build(export_pk=export.pk, now=now)  # the worker's part (no commit in a test)
    export.refresh_from_db()
    return RecordsWorld(export=export)


RECORDS_PAGES = {
    "records:export_list": (lambda w: [], {}),
    "records:export_detail": (lambda w: [w.records.export.pk], {}),
    "records:export_build_now": (lambda w: [w.records.export.pk], {"*": 405}),
    "records:export_download": (lambda w: [w.records.export.pk], {}),
}
