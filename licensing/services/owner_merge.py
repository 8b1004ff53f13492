"""Duplicate owners: finding them before one is registered, and merging two records.

A merge moves everything that points to the duplicate owner (animals, licenses, kennel
licenses, applications, impound redemptions, dangerous-dog cases, ...) to the surviving
record, found through ``Owner._meta.related_objects`` so that a model added later is
not missed. The duplicate is kept, marked ``merged_into``: nothing is lost, and the
receipts issued to it keep the payer they name (REC-01: the database refuses rewriting
an issued receipt). simple-history keeps each row's field history; an ``Event`` records
the merge and who made it (REC-18).
"""

import re
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from kernel.checks import refuse_unless_serves
from licensing.models import Owner, OwnerSearch
from ordinance.models import Event
from ordinance.refusals import Refused, refusing

# Rows that keep pointing at the owner they were issued to: the payer of a receipt is
# what was issued (REC-01; a trigger refuses rewriting it, migration 0008).
KEPT_AS_ISSUED = frozenset({("licensing.Receipt", "payer")})
DUPLICATE_CANDIDATES = 50

# Spellings of the same street word (USPS suffix and direction abbreviations), so that
# "12 North Main Street" and "12 N. Main St" are one address.
_WORDS = {
    "street": "st",
    "avenue": "ave",
    "av": "ave",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "boulevard": "blvd",
    "circle": "cir",
    "trail": "trl",
    "parkway": "pkwy",
    "highway": "hwy",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "apartment": "apt",
    "suite": "ste",
}


def normalize(text: str) -> str:
    """Lowercase words without punctuation, street words abbreviated one way."""
    words = re.sub(r"[^\w\s]", " ", (text or "").lower()).split()
    return " ".join(_WORDS.get(w, w) for w in words)


def _name_key(kind, first_name, last_name, organization_name) -> str:
    if kind == Owner.Kind.ORGANIZATION:
        return normalize(organization_name)
    return normalize(f"{first_name} {last_name}")


def _address_key(address_line, unit) -> str:
    return normalize(f"{address_line} {unit}")


def owner_duplicates(*, jurisdiction, exclude_pk: int | None = None, **fields) -> list[Owner]:
    """Owners of the same city whose normalized name and address are those of ``fields``
    (an owner form's cleaned data; merged records are left out: their survivor is the
    one to use)."""
    kind = fields.get("kind") or Owner.Kind.PERSON
    last_name = fields.get("last_name", "")
    organization_name = fields.get("organization_name", "")
    name = _name_key(kind, fields.get("first_name", ""), last_name, organization_name)
    address = _address_key(fields.get("address_line", ""), fields.get("unit", ""))
    if not name or not address:
        return []
    house = address.split()[0]
    # A narrow candidate set from the indexed columns, compared exactly in Python.
    narrow = Q(address_line__istartswith=house) | Q(last_name__iexact=last_name.strip())
    if organization_name:
        narrow |= Q(organization_name__iexact=organization_name.strip())
    candidates = (
        Owner.objects.filter(narrow, jurisdiction=jurisdiction, merged_into__isnull=True)
        .exclude(pk=exclude_pk)
        .select_related("jurisdiction")[:DUPLICATE_CANDIDATES]
    )
    return [
        o
        for o in candidates
        if _name_key(o.kind, o.first_name, o.last_name, o.organization_name) == name
        and _address_key(o.address_line, o.unit) == address
    ]


# --- Merge --------------------------------------------------------------------------


def _relations():
    """Every foreign key to the owner model, from whichever app (impound and
    dangerous_dogs point here too): (label, model, field name, moves?)."""
    for rel in Owner._meta.related_objects:
        model, name = rel.related_model, rel.field.name
        if model is OwnerSearch:  # each record's own search copy, rebuilt by its save()
            continue
        if rel.many_to_many or rel.one_to_one:  # none today; a merge would need thought
            raise NotImplementedError(f"{model._meta.label}.{name}")
        yield model, name, (model._meta.label, name) not in KEPT_AS_ISSUED


@dataclass
class MergeLine:
    label: str
    count: int
    moves: bool


@dataclass
class MergePreview:
    lines: list[MergeLine] = field(default_factory=list)

    @property
    def moving(self) -> list[MergeLine]:
        return [line for line in self.lines if line.moves and line.count]

    @property
    def kept(self) -> list[MergeLine]:
        return [line for line in self.lines if not line.moves and line.count]


def owner_merge_preview(duplicate: Owner) -> MergePreview:
    """How many rows of each kind point to ``duplicate``, in one query."""
    counts = {}
    for i, (model, name, _moves) in enumerate(_relations()):
        rows = (
            model._base_manager.filter(**{name: OuterRef("pk")})
            .order_by()
            .values(name)
            .annotate(n=Count("pk"))
            .values("n")
        )
        counts[f"n{i}"] = Coalesce(Subquery(rows, output_field=IntegerField()), Value(0))
    row = Owner.objects.filter(pk=duplicate.pk).annotate(**counts).values(*counts).first()
    return MergePreview(
        [
            MergeLine(str(model._meta.verbose_name_plural), row[f"n{i}"], moves)
            for i, (model, _name, moves) in enumerate(_relations())
        ]
    )


def _refuse(message):
    return Refused.because(_("Merge"), message)


def _check_pair(survivor: Owner, duplicate: Owner, actor) -> None:
    if survivor.pk == duplicate.pk:
        raise _refuse(_("Choose another owner record: a record cannot be merged into itself."))
    if survivor.jurisdiction_id != duplicate.jurisdiction_id:
        raise _refuse(_("Owners of different cities cannot be merged."))
    if survivor.merged_into_id or duplicate.merged_into_id:
        raise _refuse(_("One of these records was merged already; use the record it went to."))
    if survivor.user_id and duplicate.user_id and survivor.user_id != duplicate.user_id:
        raise _refuse(_("Both records are linked to different online accounts: unlink one first."))
    if actor is not None:  # None: the city's own system
        refuse_unless_serves(actor, survivor.jurisdiction)


@refusing()
@transaction.atomic
def owner_merge(*, survivor: Owner, duplicate: Owner, actor, now=None) -> dict[str, int]:
    """Move every row that points to ``duplicate`` to ``survivor`` and mark the duplicate
    merged. Returns the number of rows moved per kind."""
    locked = Owner.objects.select_for_update().filter(pk__in=[survivor.pk, duplicate.pk])
    rows = {o.pk: o for o in locked.order_by("pk")}
    survivor, duplicate = rows[survivor.pk], rows.get(duplicate.pk, duplicate)
    _check_pair(survivor, duplicate, actor)
    reason = f"Owner record {duplicate.pk} merged into {survivor.pk}"
    moved, kept = {}, {}
    for model, name, moves in _relations():
        label = model._meta.label
        objs = list(model._base_manager.filter(**{name: duplicate}))
        if not moves:
            kept[label] = len(objs)
            continue
        for obj in objs:  # one save each: simple-history records the field change
            setattr(obj, name, survivor)
            obj._history_user, obj._change_reason = actor, reason
            obj.save(update_fields=[name])
        moved[label] = len(objs)
    if duplicate.user_id and not survivor.user_id:  # the online account follows
        survivor.user_id, duplicate.user_id = duplicate.user_id, None
        survivor._history_user, survivor._change_reason = actor, reason
        survivor.save(update_fields=["user"])
    duplicate.merged_into = survivor
    duplicate._history_user, duplicate._change_reason = actor, reason
    duplicate.save(update_fields=["merged_into", "user"])
    data = {"survivor": survivor.pk, "duplicate": duplicate.pk, "moved": moved, "kept": kept}
    summary = f"Owner {duplicate.name} (record {duplicate.pk}) merged into {survivor.name}"
    Event.record(
        "licensing.owner.merged", survivor, actor=actor, at=now, summary=summary, data=data
    )
    Event.record(
        "licensing.owner.merged_away", duplicate, actor=actor, at=now, summary=summary, data=data
    )
    return moved
