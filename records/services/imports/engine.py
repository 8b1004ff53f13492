"""The import's run (issue 19 item 1): dry run, apply, cancel, undo.

A batch's file is read row by row (``reading``) and handled in chunks of ``CHUNK_ROWS``:
each chunk is one transaction, after which the progress counts are written and the
cancel flag read, so the page's bar moves, a cancel stops at the next chunk and memory
stays flat whatever the file's size. A dry run goes through the very same code inside
one transaction that is rolled back: what it reports is what the import would do.

History as history: an imported license keeps its number, term and tag; the tag is
marked issued in its year's stock (a one-tag stock row "imported" when the city has no
stock covering it, REC-02, LIC-08); no receipt is made; the city's license series and
receipt series are moved past the imported numbers (``numbering``), so the next license
and receipt the counter issues follow them. Every row written carries the batch as its
audit history's change reason.
"""

import logging
import re
from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import (
    Animal,
    License,
    LicenseKind,
    LicenseSeries,
    Owner,
    Ownership,
    Premises,
    RabiesVaccination,
    ReceiptSeries,
    Tag,
    TagStatus,
    TagStock,
)
from ordinance.models import Event
from ordinance.refusals import Refused
from records.models import (
    ImportAction,
    ImportBatch,
    ImportIssue,
    ImportLayout,
    ImportRecord,
    ImportStatus,
)

from . import reading
from .export_rows import ExportRow
from .kennel_rows import KennelAnimalExportRow, KennelExportRow, KennelSheetRow
from .rows import Issue, RowResult, SheetRow, row_status
from .values import LAST_FIRST, MDY

logger = logging.getLogger(__name__)

CHUNK_ROWS = 500
REPORT_ROWS = 200  # rows the dry run's report lists one by one; the counts cover all
MODELS = {
    "owner": Owner,
    "premises": Premises,
    "animal": Animal,
    "vaccination": RabiesVaccination,
    "license": License,
    "tag": Tag,
    "ownership": Ownership,
}
LABELS = {m: m._meta.label_lower for m in MODELS.values()}
_YEAR_NUMBER = re.compile(r"(\d{4})-(\d{1,9})")
HANDLERS = {
    ImportLayout.SHEET: SheetRow,
    ImportLayout.KENNEL_SHEET: KennelSheetRow,
    ImportLayout.KENNELS: KennelExportRow,
    ImportLayout.KENNEL_ANIMALS: KennelAnimalExportRow,
}


class _DryRunRollback(Exception):
    pass


class Run:
    """One pass over a batch's file, dry or not."""

    def __init__(self, batch: ImportBatch, *, dry_run: bool, today: date | None = None):
        self.batch, self.city, self.dry_run = batch, batch.jurisdiction, dry_run
        self.layout = batch.layout
        self.actor = batch.created_by
        self.reason = batch.change_reason
        self.today = today or timezone.localdate()
        mapping = batch.mapping or {}
        self.columns = mapping.get("columns", {})
        self.date_order = mapping.get("date_order", MDY)
        self.name_order = mapping.get("name_order", LAST_FIRST)
        self.note = _("Imported from %(source)s, %(date)s") % {
            "source": batch.source_name,
            "date": date_format(self.today),
        }
        self.known: dict[tuple[str, str], int] = {}
        self.pending: list[ImportRecord] = []
        self.highest_license: dict[int, int] = {}
        self.highest_receipt = 0
        self.highest_kennel: dict[int, int] = {}

    # -- the lookups rows use -----------------------------------------------------------

    def find(self, model, table: str, source_id: str):
        """The record imported before from this source under this id, or None."""
        pk = self.known.get((table, source_id))
        if pk is None:
            pk = (
                ImportRecord.objects.exclude(batch__status=ImportStatus.UNDONE)
                .filter(
                    jurisdiction=self.city,
                    source_name=self.batch.source_name,
                    source_table=table,
                    source_id=source_id,
                )
                .order_by("-pk")
                .values_list("target_pk", flat=True)
                .first()
            )
        if pk is None:
            return None
        self.known[(table, source_id)] = pk
        return model._base_manager.filter(pk=pk).first()

    def remember(self, table, source_id, obj, action, row_number) -> None:
        self.known[(table, source_id)] = obj.pk
        self.pending.append(
            ImportRecord(
                batch=self.batch,
                jurisdiction=self.city,
                source_name=self.batch.source_name,
                source_table=table,
                source_id=source_id[:200],
                row_number=row_number,
                target_model=obj._meta.label_lower,
                target_pk=obj.pk,
                action=action,
            )
        )

    def save(self, obj) -> None:
        obj._history_user = self.actor
        obj._change_reason = self.reason
        obj.save()

    def note_numbers(self, license_number: str, receipt_number: int | None) -> None:
        if m := _YEAR_NUMBER.fullmatch(license_number):
            year, n = int(m[1]), int(m[2])
            self.highest_license[year] = max(self.highest_license.get(year, 0), n)
        if receipt_number:
            self.highest_receipt = max(self.highest_receipt, receipt_number)

    def note_kennel_number(self, number: str) -> None:
        """A kennel license's number: the city's kennel series continues after it."""
        if m := _YEAR_NUMBER.fullmatch(number):
            year, n = int(m[1]), int(m[2])
            self.highest_kennel[year] = max(self.highest_kennel.get(year, 0), n)

    def issue_tag(self, license, number: int, row_number: int, *, on=None, year=None) -> Tag:
        """The license's old tag, marked issued in its year's stock (LIC-08, REC-02): the
        stock's tag when the city has one covering it, else a one-tag stock row named
        after the source. Never a tag issued to another license (checked by the row)."""
        year = year or license.expires_on.year
        tag = Tag.objects.filter(jurisdiction=self.city, year=year, number=number).first()
        if tag is not None and tag.license_id == license.pk and tag.status == TagStatus.ISSUED:
            return tag
        if tag is None:
            stock = TagStock.objects.filter(
                jurisdiction=self.city, year=year, first_number__lte=number, last_number__gte=number
            ).first()
            if stock is None:
                stock = TagStock(
                    jurisdiction=self.city,
                    year=year,
                    first_number=number,
                    last_number=number,
                    received_on=on or license.issued_on,
                    vendor=self.note[:120],
                    recorded_by=self.actor,
                )
                self.save(stock)
                self.remember(
                    "tagstock", f"{year}-{number}", stock, ImportAction.CREATED, row_number
                )
            tag = Tag(jurisdiction=self.city, year=year, number=number, stock=stock)
            created = True
        else:
            created = False
        for old in license.tags.filter(status=TagStatus.ISSUED).exclude(pk=tag.pk):
            old.status, old.status_changed_on = TagStatus.VOID, self.today
            self.save(old)
        tag.status, tag.license = TagStatus.ISSUED, license
        tag.issued_on = tag.status_changed_on = on or license.issued_on
        self.save(tag)
        self.remember(
            "tag",
            f"{year}-{number}",
            tag,
            ImportAction.CREATED if created else ImportAction.UPDATED,
            row_number,
        )
        return tag

    # -- the pass -----------------------------------------------------------------------

    def row(self, number: int, raw: dict[str, str]) -> RowResult:
        handler = HANDLERS.get(self.layout, ExportRow)(self, number, raw)
        try:
            parts = handler.check()
        except Refused as refused:
            handler.issues.extend(Issue(c.field or "", str(c)) for c in refused.checks)
            parts = []
        if handler.issues or not parts:
            return RowResult(number, row_status({}, handler.issues), {}, handler.issues)
        with transaction.atomic():
            actions = handler.write(parts)
        return RowResult(number, row_status(actions, []), actions)

    def finish_numbers(self) -> None:
        """The city's series continue after the imported numbers (LIC-06, REC-01)."""
        for year, highest in self.highest_license.items():
            series, _created = LicenseSeries.objects.select_for_update().get_or_create(
                jurisdiction=self.city, kind=LicenseKind.DOG, year=year
            )
            if series.next_number <= highest:
                series.next_number = highest + 1
                series.save(update_fields=["next_number"])
        if self.highest_receipt:
            series, _created = ReceiptSeries.objects.select_for_update().get_or_create(
                jurisdiction=self.city
            )
            if series.next_number <= self.highest_receipt:
                series.next_number = self.highest_receipt + 1
                series.save(update_fields=["next_number"])
        for year, highest in self.highest_kennel.items():  # KEN-04: kennel numbers too
            series, _created = LicenseSeries.objects.select_for_update().get_or_create(
                jurisdiction=self.city, kind=LicenseSeries.Kind.KENNEL, year=year
            )
            if series.next_number <= highest:
                series.next_number = highest + 1
                series.save(update_fields=["next_number"])
        self.highest_license, self.highest_receipt, self.highest_kennel = {}, 0, {}

    def flush(self) -> None:
        ImportRecord.objects.bulk_create(self.pending)
        self.pending = []


def _rows(batch: ImportBatch):
    kind = reading.sniff_kind(batch.file)
    yield from enumerate(reading.iter_rows(batch.file, kind), start=2)  # row 1: the header


_COUNTS = {
    ImportAction.CREATED: "created_count",
    ImportAction.UPDATED: "updated_count",
    ImportAction.MATCHED: "matched_count",
    "skipped": "skipped_count",
    "error": "error_count",
}


def _tally(counts: dict, result: RowResult) -> None:
    counts[_COUNTS[result.status]] = counts.get(_COUNTS[result.status], 0) + 1


def _issues(batch, result: RowResult, *, dry_run: bool) -> list[ImportIssue]:
    return [
        ImportIssue(
            batch=batch,
            row_number=result.row_number,
            field=i.field[:80],
            message=i.message,
            kind=i.kind,
            dry_run=dry_run,
        )
        for i in result.issues
    ]


def _reset(batch: ImportBatch, **fields) -> None:
    for name in (*_COUNTS.values(), "processed_rows"):
        fields.setdefault(name, 0)
    ImportBatch.objects.filter(pk=batch.pk).update(**fields)
    batch.refresh_from_db()


def dry_run(batch: ImportBatch, *, today: date | None = None) -> ImportBatch:
    """What the import would do with each row, and why; nothing kept (rolled back)."""
    run = Run(batch, dry_run=True, today=today)
    counts, listed, issues, total = {}, [], [], 0
    opened = batch.file.open("rb")
    try:
        with transaction.atomic():
            for number, raw in _rows(batch):
                total += 1
                result = run.row(number, raw)
                _tally(counts, result)
                issues.extend(_issues(batch, result, dry_run=True))
                if len(listed) < REPORT_ROWS:
                    listed.append(
                        {
                            "row": number,
                            "status": result.status,
                            "actions": result.actions,
                            "why": [i.message for i in result.issues],
                        }
                    )
            raise _DryRunRollback
    except _DryRunRollback:
        pass
    finally:
        opened.close()
    ImportIssue.objects.filter(batch=batch, dry_run=True).delete()
    ImportIssue.objects.bulk_create(issues, batch_size=1000)
    _reset(
        batch,
        status=ImportStatus.DRY_RUN,
        total_rows=total,
        processed_rows=total,
        report={"rows": listed},
        **counts,
    )
    return batch


def import_queue(batch: ImportBatch) -> ImportBatch:
    """Mark the batch waiting and hand it to the worker after this commits."""
    if batch.status not in (ImportStatus.UPLOADED, ImportStatus.DRY_RUN, ImportStatus.CANCELLED):
        return batch
    _reset(batch, status=ImportStatus.QUEUED, cancel_requested=False, error="")

    def queue():
        from records.tasks import run_import

        run_import.delay(batch.pk)

    transaction.on_commit(queue, robust=True)
    return batch


def _claim(batch_pk: int) -> bool:
    return bool(
        ImportBatch.objects.filter(pk=batch_pk, status=ImportStatus.QUEUED).update(
            status=ImportStatus.RUNNING, started_at=timezone.now()
        )
    )


def import_apply(batch_pk: int, *, today: date | None = None) -> ImportBatch | None:
    """Import a queued batch in chunks, progress and cancel checked between them.
    None if another run has it (the task is idempotent)."""
    if not _claim(batch_pk):
        return None
    batch = ImportBatch.objects.select_related("jurisdiction", "created_by").get(pk=batch_pk)
    run = Run(batch, dry_run=False, today=today)
    counts: dict[str, int] = {}
    done = 0
    ImportIssue.objects.filter(batch=batch, dry_run=False).delete()
    total = batch.total_rows or None
    try:
        with batch.file.open("rb"):
            rows = _rows(batch)
            while True:
                chunk = [r for _i, r in zip(range(CHUNK_ROWS), rows, strict=False)]
                if not chunk:
                    break
                issues = []
                with transaction.atomic():
                    for number, raw in chunk:
                        result = run.row(number, raw)
                        _tally(counts, result)
                        issues.extend(_issues(batch, result, dry_run=False))
                    run.flush()
                    run.finish_numbers()
                    ImportIssue.objects.bulk_create(issues)
                done += len(chunk)
                ImportBatch.objects.filter(pk=batch.pk).update(
                    processed_rows=done, total_rows=max(total or 0, done), **counts
                )
                if ImportBatch.objects.filter(pk=batch.pk, cancel_requested=True).exists():
                    return _finish(batch, ImportStatus.CANCELLED)
    except Exception as error:
        logger.exception("Import batch %s failed", batch.pk)
        ImportBatch.objects.filter(pk=batch.pk).update(
            status=ImportStatus.FAILED, finished_at=timezone.now(), error=str(error)[:2000]
        )
        raise
    ImportBatch.objects.filter(pk=batch.pk).update(total_rows=done)
    return _finish(batch, ImportStatus.DONE)


def _finish(batch, status) -> ImportBatch:
    ImportBatch.objects.filter(pk=batch.pk).update(status=status, finished_at=timezone.now())
    batch.refresh_from_db()
    Event.record(
        f"records.import.{status}",
        batch,
        actor=batch.created_by,
        jurisdiction=batch.jurisdiction,
        summary=_(
            "Import %(pk)s from %(source)s: %(created)s created, %(updated)s updated, "
            "%(matched)s matched, %(skipped)s skipped, %(errors)s with errors"
        )
        % {
            "pk": batch.pk,
            "source": batch.source_name,
            "created": batch.created_count,
            "updated": batch.updated_count,
            "matched": batch.matched_count,
            "skipped": batch.skipped_count,
            "errors": batch.error_count,
        },
    )
    return batch


def import_cancel(batch: ImportBatch) -> None:
    """Ask a running import to stop after its current chunk; a queued one stops now."""
    ImportBatch.objects.filter(pk=batch.pk, status=ImportStatus.RUNNING).update(
        cancel_requested=True
    )
    ImportBatch.objects.filter(pk=batch.pk, status=ImportStatus.QUEUED).update(
        status=ImportStatus.CANCELLED, finished_at=timezone.now()
    )
