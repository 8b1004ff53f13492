"""The import's run: dry run, apply, cancel, undo.

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

import itertools
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
    Owner,
    Ownership,
    Premises,
    RabiesVaccination,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.services.numbering import (
    DOG_LICENSES,
    KENNEL_LICENSES,
    RECEIPTS,
    numbers_continue_after,
)
from ordinance.deadlines import records_changed
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force
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
from .lookups import Lookups, same_record
from .rows import Issue, RowResult, blocking, row_status
from .sheet_rows import SheetRow
from .values import LAST_FIRST, MDY

logger = logging.getLogger(__name__)

CHUNK_ROWS = 500
REPORT_ROWS = 200  # rows the dry run's report lists one by one; the counts cover all
# The order a chunk's records are written in: each after the records it refers to.
WRITE_ORDER = [Owner, Premises, Animal, Ownership, RabiesVaccination, License, TagStock, Tag]
BATCH = 500  # rows per INSERT
SOURCE_ID_MAX = ImportRecord._meta.get_field("source_id").max_length
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
    """One pass over a batch's file, dry or not.

    Set-based per chunk: before a chunk's rows are checked, what they will look up is
    read in a few queries (``prefetch``: the records imported before under the rows'
    source ids, and each handler's own lookups, ``Lookups``); the rows' writes are kept
    in memory (``save``) and written at the chunk's end (``flush``) in bulk, each model
    after the ones it refers to, with its audit history (the batch as the reason) and
    the source ids (``ImportRecord``). Rows later in a chunk see what earlier ones wrote
    (the lookups and ``known`` hold the unsaved records); later chunks find it in the
    database. Nothing of a chunk is kept after its flush, so memory stays flat."""

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
        self.highest_license: dict[int, int] = {}
        self.highest_receipt = 0
        self.highest_kennel: dict[int, int] = {}
        self._rules: dict[str, object] = {}
        self._reset_chunk()

    def _reset_chunk(self) -> None:
        self.known: dict[tuple[str, str], object] = {}  # (table, source id) -> record
        self.missing: set[tuple[str, str]] = set()  # looked up: not imported before
        self.records: list[tuple[str, str, object, str, int]] = []
        self.new: dict[type, dict[int, object]] = {}  # model -> records to create
        self.changed: dict[type, dict[int, object]] = {}  # model -> records to update
        self.lookups = Lookups(self)

    def handler(self, number: int, raw: dict[str, str]):
        return HANDLERS.get(self.layout, ExportRow)(self, number, raw)

    # -- the lookups rows use -----------------------------------------------------------

    def rule(self, key: str):
        """The city's rule value in force today, read once per run (a run is minutes)."""
        if key not in self._rules:
            self._rules[key] = rule_in_force(self.city, key, on=self.today).value
        return self._rules[key]

    def prefetch(self, handlers) -> None:
        """Read in bulk what this chunk's rows will look up by source id, then each
        handler class's own lookups."""
        wanted: dict[tuple[str, str], type] = {}
        for handler in handlers:
            for model, table, source_id in handler.sources():
                if source_id:
                    wanted[(table, source_id[:SOURCE_ID_MAX])] = model
        wanted = {k: m for k, m in wanted.items() if k not in self.known and k not in self.missing}
        if wanted:
            latest: dict[tuple[str, str], int] = {}
            rows = (
                ImportRecord.objects.exclude(batch__status=ImportStatus.UNDONE)
                .filter(
                    jurisdiction=self.city,
                    source_name=self.batch.source_name,
                    source_table__in={t for t, _s in wanted},
                    source_id__in={s for _t, s in wanted},
                )
                .order_by("pk")
                .values_list("source_table", "source_id", "target_pk")
            )
            for table, source_id, pk in rows:
                if (table, source_id) in wanted:
                    latest[(table, source_id)] = pk  # the last one written wins
            by_model: dict[type, dict[int, tuple[str, str]]] = {}
            for key, pk in latest.items():
                by_model.setdefault(wanted[key], {})[pk] = key
            for model, keys in by_model.items():
                for pk, obj in model._base_manager.in_bulk(list(keys)).items():
                    self.known[keys[pk]] = self.lookups.adopt(obj)
            self.missing.update(k for k in wanted if k not in self.known)
        for kind in {type(h) for h in handlers}:
            kind.prefetch(self, [h for h in handlers if type(h) is kind])

    def find(self, model, table: str, source_id: str):
        """The record imported before from this source under this id, or None."""
        key = (table, source_id[:SOURCE_ID_MAX])
        if key in self.known:
            return self.known[key]
        if key in self.missing:
            return None
        pk = (
            ImportRecord.objects.exclude(batch__status=ImportStatus.UNDONE)
            .filter(
                jurisdiction=self.city,
                source_name=self.batch.source_name,
                source_table=table,
                source_id=key[1],
            )
            .order_by("-pk")
            .values_list("target_pk", flat=True)
            .first()
        )
        obj = None if pk is None else model._base_manager.filter(pk=pk).first()
        if obj is None:
            self.missing.add(key)
            return None
        self.known[key] = self.lookups.adopt(obj)
        return obj

    def remember(self, table, source_id, obj, action, row_number) -> None:
        key = (table, source_id[:SOURCE_ID_MAX])
        self.known[key] = obj
        self.missing.discard(key)
        self.records.append((table, key[1], obj, action, row_number))

    def save(self, obj) -> None:
        """Keep a new or changed record for the chunk's flush, with its history's user
        and reason; a record new in this chunk stays new however often it is saved."""
        obj._history_user = self.actor
        obj._change_reason = self.reason
        model = type(obj)
        if obj.pk is None:
            self.new.setdefault(model, {})[id(obj)] = obj
        elif id(obj) not in self.new.get(model, {}):
            self.changed.setdefault(model, {})[id(obj)] = obj

    def record_as(self, obj, **values) -> None:
        """Set ``values`` on a record as the source has it, its status among them, and
        keep it for the flush (``save``). History as history: what the old system's
        record says is no event of the record's life in this city, so none of its
        transitions applies (their events would date it today); the audit history
        names the batch, and an undo voids or restores it."""
        for name, value in values.items():
            setattr(obj, name, value)
        self.save(obj)

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
        tag = self.lookups.tag(year, number)
        if tag is not None and tag.status == TagStatus.ISSUED and same_record(tag.license, license):
            return tag
        if tag is None:
            stock = self.lookups.stock(year, number)
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
                self.lookups.add_stock(stock)
                self.remember(
                    "tagstock", f"{year}-{number}", stock, ImportAction.CREATED, row_number
                )
            tag = Tag(jurisdiction=self.city, year=year, number=number, stock=stock)
            created = True
        else:
            created = False
        for old in self.lookups.issued_tags_of(license):
            if old is not tag:
                self.record_as(old, status=TagStatus.VOID, status_changed_on=self.today)
        on = on or license.issued_on
        self.record_as(
            tag, status=TagStatus.ISSUED, license=license, issued_on=on, status_changed_on=on
        )
        self.lookups.add_tag(tag)
        self.remember(
            "tag",
            f"{year}-{number}",
            tag,
            ImportAction.CREATED if created else ImportAction.UPDATED,
            row_number,
        )
        return tag

    # -- the pass -----------------------------------------------------------------------

    def row(self, handler) -> RowResult:
        """Check one row whole; keep its writes for the flush only if it has no issue."""
        try:
            parts = handler.check()
        except Refused as refused:
            handler.issues.extend(Issue(c.field or "", str(c)) for c in refused.checks)
            parts = []
        if blocking(handler.issues) or not parts:
            return RowResult(handler.number, row_status({}, handler.issues), {}, handler.issues)
        actions = handler.write(parts)
        return RowResult(handler.number, row_status(actions, []), actions, handler.issues)

    def chunk(self, rows) -> list[RowResult]:
        """A chunk of (row number, raw row): prefetched, checked row by row, flushed."""
        handlers = [self.handler(number, raw) for number, raw in rows]
        self.prefetch(handlers)
        results = [self.row(h) for h in handlers]
        self.flush()
        return results

    def finish_numbers(self) -> None:
        """The city's series continue after the imported numbers (LIC-06, REC-01)."""
        for year, highest in self.highest_license.items():
            numbers_continue_after(self.city, DOG_LICENSES, highest, year)
        if self.highest_receipt:
            numbers_continue_after(self.city, RECEIPTS, self.highest_receipt)
        for year, highest in self.highest_kennel.items():  # KEN-04: kennel numbers too
            numbers_continue_after(self.city, KENNEL_LICENSES, highest, year)
        self.highest_license, self.highest_receipt, self.highest_kennel = {}, 0, {}

    def flush(self) -> None:
        """Write the chunk: each model's new records in bulk, then its changed ones, in
        ``WRITE_ORDER`` (a record after those it refers to), each with its history; then
        the source ids. One INSERT per model and batch instead of two per record."""
        models = [*WRITE_ORDER, *(m for m in (*self.new, *self.changed) if m not in WRITE_ORDER)]
        for model in dict.fromkeys(models):
            history = getattr(model, "history", None)
            if created := list(self.new.get(model, {}).values()):
                for obj in created:
                    if hasattr(obj, "fill_derived"):
                        obj.fill_derived()
                model._base_manager.bulk_create(created, batch_size=BATCH)
                if hasattr(model, "bulk_created"):  # what save() does after (Owner: search)
                    model.bulk_created(created)
                if history is not None:
                    history.bulk_history_create(
                        created,
                        batch_size=BATCH,
                        default_user=self.actor,
                        default_change_reason=self.reason,
                    )
            if not self.dry_run:  # a dry run locks none of the city's rows (see dry_run)
                for obj in self.changed.get(model, {}).values():
                    obj.save()  # rare (a second run's changes): the model's own save, history
        ImportRecord.objects.bulk_create(
            [
                ImportRecord(
                    batch=self.batch,
                    jurisdiction=self.city,
                    source_name=self.batch.source_name,
                    source_table=table,
                    source_id=source_id,
                    row_number=row_number,
                    target_model=obj._meta.label_lower,
                    target_pk=obj.pk,
                    action=action,
                )
                for table, source_id, obj, action, row_number in self.records
            ],
            batch_size=BATCH,
        )
        if self.new or self.changed:
            records_changed()  # bulk writes send no post_save (the home page's deadlines)
        self._reset_chunk()


def _rows(batch: ImportBatch):
    kind = reading.sniff_kind(batch.file)
    yield from enumerate(reading.iter_rows(batch.file, kind), start=2)  # row 1: the header


def _chunks(batch: ImportBatch):
    """The file's rows in lists of ``CHUNK_ROWS`` (one transaction each on import)."""
    rows = _rows(batch)
    while chunk := list(itertools.islice(rows, CHUNK_ROWS)):
        yield chunk


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


def _counts_set(batch: ImportBatch, **fields) -> list[str]:
    """Set the batch's counts (zero where not given) and ``fields``; the names set."""
    for name in (*_COUNTS.values(), "processed_rows"):
        fields.setdefault(name, 0)
    for name, value in fields.items():
        setattr(batch, name, value)
    return list(fields)


def _summary(batch: ImportBatch) -> str:
    return _("Import %(pk)s from %(source)s") % {"pk": batch.pk, "source": batch.source_name}


def import_mapping_set(batch: ImportBatch, mapping: dict, *, actor) -> ImportBatch:
    """A new column mapping (typed, or a saved one loaded): the dry run is done again."""
    batch.ensure("map")
    batch.mapping = mapping
    batch.apply("map", actor=actor, summary=_summary(batch), fields=["mapping"])
    return batch


def dry_run(batch: ImportBatch, *, today: date | None = None) -> ImportBatch:
    """What the import would do with each row, and why; nothing kept (rolled back).

    The dry run goes through the import's own code, chunk by chunk, inside one
    transaction that is rolled back at the end, so later chunks see what earlier ones
    would have made and the report is what the import will do. What it writes is new
    rows only, which no one else sees or waits for; it does not write its changes to
    records the city already has (the counter could be waiting on those rows for the
    whole run), so a record changed by two chunks' rows is counted as updated twice."""
    batch.ensure("dry_run")
    counts, listed, issues, total = _dry_run_rows(batch, today=today)
    ImportIssue.objects.filter(batch=batch, dry_run=True).delete()
    ImportIssue.objects.bulk_create(issues, batch_size=1000)
    fields = _counts_set(
        batch, total_rows=total, processed_rows=total, report={"rows": listed}, **counts
    )
    batch.apply("dry_run", summary=_summary(batch), fields=fields)
    return batch


def _dry_run_rows(batch: ImportBatch, *, today: date | None):
    """(counts, the rows listed, the issues, rows read) of a pass rolled back at its end."""
    run = Run(batch, dry_run=True, today=today)
    counts, listed, issues, total = {}, [], [], 0
    opened = batch.file.open("rb")
    try:
        with transaction.atomic():
            for chunk in _chunks(batch):
                for result in run.chunk(chunk):
                    total += 1
                    _tally(counts, result)
                    issues.extend(_issues(batch, result, dry_run=True))
                    if len(listed) < REPORT_ROWS:
                        listed.append(
                            {
                                "row": result.row_number,
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
    return counts, listed, issues, total


def import_queue(batch: ImportBatch) -> ImportBatch:
    """Mark the batch waiting and hand it to the worker after this commits."""
    if not batch.may("queue"):
        return batch
    batch.cancel_requested, batch.error = False, ""
    fields = _counts_set(batch, cancel_requested=False, error="")
    batch.apply("queue", actor=batch.created_by, summary=_summary(batch), fields=fields)

    def queue():
        from records.tasks import run_import

        run_import.delay(batch.pk)

    transaction.on_commit(queue, robust=True)
    return batch


def _claim(batch_pk: int) -> ImportBatch | None:
    """Queued to running, once: a second worker waits on the row lock, then finds it
    taken (None)."""
    now = timezone.now()
    with transaction.atomic():
        batch = (
            ImportBatch.objects.select_for_update(of=("self",))
            .select_related("jurisdiction", "created_by")
            .filter(pk=batch_pk)
            .first()
        )
        if batch is None or not batch.may("start"):
            return None
        batch.started_at = now
        batch.apply("start", at=now, summary=_summary(batch), fields=["started_at"])
    return batch


def import_apply(batch_pk: int, *, today: date | None = None) -> ImportBatch | None:
    """Import a queued batch in chunks, progress and cancel checked between them.
    None if another run has it (the task is idempotent)."""
    batch = _claim(batch_pk)
    if batch is None:
        return None
    run = Run(batch, dry_run=False, today=today)
    counts: dict[str, int] = {}
    done = 0
    ImportIssue.objects.filter(batch=batch, dry_run=False).delete()
    total = batch.total_rows or None
    try:
        with batch.file.open("rb"):
            for chunk in _chunks(batch):
                issues = []
                with transaction.atomic():
                    for result in run.chunk(chunk):
                        _tally(counts, result)
                        issues.extend(_issues(batch, result, dry_run=False))
                    run.finish_numbers()
                    ImportIssue.objects.bulk_create(issues, batch_size=BATCH)
                done += len(chunk)
                ImportBatch.objects.filter(pk=batch.pk).update(
                    processed_rows=done, total_rows=max(total or 0, done), **counts
                )
                if ImportBatch.objects.filter(pk=batch.pk, cancel_requested=True).exists():
                    return _finish(batch, ImportStatus.CANCELLED)
    except Exception as error:
        logger.exception("Import batch %s failed", batch.pk)
        batch.finished_at, batch.error = timezone.now(), str(error)[:2000]
        batch.apply("fail", summary=_summary(batch), fields=["finished_at", "error"])
        raise
    ImportBatch.objects.filter(pk=batch.pk).update(total_rows=done)
    return _finish(batch, ImportStatus.DONE)


def _finish(batch, status) -> ImportBatch:
    batch.refresh_from_db()
    batch.finished_at = timezone.now()
    batch.apply(
        "finish",
        to=status,
        actor=batch.created_by,
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
        fields=["finished_at"],
    )
    return batch


def import_cancel(batch: ImportBatch) -> None:
    """Ask a running import to stop after its current chunk; a queued one stops now."""
    ImportBatch.objects.filter(pk=batch.pk, status=ImportStatus.RUNNING).update(
        cancel_requested=True
    )
    with transaction.atomic():
        queued = ImportBatch.objects.select_for_update().get(pk=batch.pk)
        if queued.may("cancel"):
            queued.finished_at = timezone.now()
            queued.apply(
                "cancel", at=queued.finished_at, summary=_summary(queued), fields=["finished_at"]
            )
