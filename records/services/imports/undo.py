"""Undo an import batch while no later work has touched its rows.

What the batch created is removed (its audit history keeps the rows and their removal);
what it updated goes back to the version before the batch. Refused, with a sentence
saying why, once anything later has changed one of its rows (a later entry in the row's
audit history), a later import batch relies on them, or another record now refers to
one (a renewal, a receipt, an impound: the database's protection answers).
"""

from django.apps import apps
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone
from django.utils.translation import gettext as _

from ordinance.refusals import Refused
from records.models import ImportAction, ImportBatch, ImportRecord, ImportStatus

SLICE = 1000  # rows per statement
CREATED = ImportAction.CREATED
# Removal order: what refers to a row goes before it.
ORDER = [
    "licensing.tag",
    "licensing.license",
    "licensing.kennelanimal",
    "licensing.kennellicense",
    "licensing.rabiesvaccination",
    "licensing.ownership",
    "licensing.animal",
    "licensing.premises",
    "licensing.tagstock",
    "licensing.owner",
]


def _refused(message: str) -> Refused:
    return Refused.because(_("Undo"), message, "")


def _written(batch) -> dict[str, list[tuple[int, str]]]:
    found: dict[str, list[tuple[int, str]]] = {}
    rows = (
        ImportRecord.objects.filter(batch=batch)
        .exclude(action=ImportAction.MATCHED)
        .values_list("target_model", "target_pk", "action")
    )
    for label, pk, action in rows.iterator(chunk_size=2000):
        found.setdefault(label, []).append((pk, action))
    return found


def undo_refusal(batch: ImportBatch) -> str | None:
    """Why this batch cannot be undone now, or None."""
    if not batch.may("undo"):
        return _("Only a finished, cancelled or failed import can be undone.")
    written = _written(batch)
    since = batch.finished_at or timezone.now()
    for label, rows in written.items():
        model = apps.get_model(label)
        pks = [pk for pk, _action in rows]
        history = model.history.model
        for start in range(0, len(pks), 5000):
            part = pks[start : start + 5000]
            later = history.objects.filter(id__in=part, history_date__gt=since).first()
            if later is not None:
                return _(
                    "A %(what)s this import wrote was changed afterwards (%(when)s): undo "
                    "would lose that work, so it is refused."
                ) % {
                    "what": model._meta.verbose_name,
                    "when": f"{timezone.localtime(later.history_date):%Y-%m-%d %H:%M}",
                }
    later_batch = (
        ImportRecord.objects.filter(batch__jurisdiction=batch.jurisdiction, batch__pk__gt=batch.pk)
        .exclude(batch__status=ImportStatus.UNDONE)
        .filter(
            target_pk__in=ImportRecord.objects.filter(batch=batch).values("target_pk"),
            target_model__in=list(written),
        )
        .values_list("batch_id", flat=True)
        .first()
    )
    if later_batch is not None:
        return _("Import %(pk)s, made later, uses rows of this one: undo that import first.") % {
            "pk": later_batch
        }
    return None


def _restore(model, pk, batch, actor, reason) -> None:
    before = (
        model.history.filter(id=pk, history_date__lt=batch.started_at)
        .order_by("-history_date")
        .first()
    )
    if before is not None:
        instance = before.instance
        instance._history_user, instance._change_reason = actor, reason
        instance.save()


def _remove(model, pks: list[int]) -> int:
    """Delete what nothing refers to, a slice at a time; a row a kept record still holds
    (the animal of a voided license) stays. Returns how many stayed."""
    kept = 0
    for start in range(0, len(pks), SLICE):
        part = pks[start : start + SLICE]
        try:
            with transaction.atomic():
                model._base_manager.filter(pk__in=part).delete()
        except ProtectedError:  # some of the slice are held: one by one, to keep only those
            for pk in part:
                try:
                    with transaction.atomic():
                        model._base_manager.filter(pk=pk).delete()
                except ProtectedError:
                    kept += 1
    return kept


def _void(model, pks: list[int], actor, reason, *, at, **values) -> None:
    """Void the rows not void yet (the model's ``void`` transition, set-based), a slice at
    a time, with one history entry and one event each; ``values``: columns set with it."""
    for start in range(0, len(pks), SLICE):
        rows = model._base_manager.filter(pk__in=pks[start : start + SLICE])
        model.apply_all(rows, "void", at=at, actor=actor, reason=reason, summary=reason, **values)


@transaction.atomic
def import_undo(*, batch: ImportBatch, actor) -> ImportBatch:
    """Issued licenses and tags are never deleted (style.md; the database refuses it):
    the batch's licenses and tags are voided, with the undo as the reason, so their
    numbers are never reused (LIC-14); every other row it created is removed unless a
    voided license still holds it (a kennel license it created is removed: its audit
    history keeps it and the kennel series stays past its number, LIC-14); every row it
    updated goes back to its version before the batch."""
    batch = ImportBatch.objects.select_for_update().get(pk=batch.pk)
    why = undo_refusal(batch)
    if why:
        raise _refused(why)
    written = _written(batch)
    reason = f"Undo of import batch {batch.pk}"[:100]
    today = timezone.localdate()
    kept = 0
    from licensing.models import License, Tag

    tags = written.get("licensing.tag", [])
    updated = [pk for pk, action in tags if action == ImportAction.UPDATED]
    free = set()  # a stock's tag the batch issued that is free again: back as it was
    for start in range(0, len(updated), SLICE):
        part = updated[start : start + SLICE]
        free |= set(
            Tag.objects.filter(pk__in=part, license__isnull=True).values_list("pk", flat=True)
        )
    for pk in free:
        _restore(Tag, pk, batch, actor, reason)
    now = timezone.now()
    _void(
        Tag,
        [pk for pk, _action in tags if pk not in free],
        actor,
        reason,
        at=now,
        status_changed_on=today,
    )
    _void(
        License,
        [pk for pk, action in written.get("licensing.license", []) if action == CREATED],
        actor,
        reason,
        at=now,
        status_changed_on=today,
        status_reason=_("Import %(pk)s undone") % {"pk": batch.pk},
    )
    for label in ORDER[2:]:
        model = apps.get_model(label)
        rows = written.get(label, [])
        for pk, action in rows:
            if action == ImportAction.UPDATED:
                _restore(model, pk, batch, actor, reason)
        kept += _remove(model, [pk for pk, action in rows if action == ImportAction.CREATED])
    batch.undone_at, batch.undone_by = now, actor
    batch.apply(
        "undo",
        actor=actor,
        at=batch.undone_at,
        summary=_(
            "Import %(pk)s from %(source)s undone; %(kept)s records kept for its voided licenses"
        )
        % {"pk": batch.pk, "source": batch.source_name, "kept": kept},
        fields=["undone_at", "undone_by"],
    )
    return batch
