"""The officer's case file: every complaint, entry or inspection,
warning, citation, seizure and impoundment about an animal, an owner or a premises, in
time order, in ONE query whatever the number of records.

Each source is a queryset reduced to the same columns (``COLUMNS``), and the sources are
joined with ``UNION ALL`` and sorted by the database. The registry pages this appears on
are at the page query budget (tests/test_every_page.py), so the case file may cost one
query and no more; labels of choices are looked up in Python from the models' choices.

Another app's records may join by registering a source (``register_source``).
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from django.db.models import (
    CharField,
    DateField,
    DateTimeField,
    F,
    IntegerField,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.compiled import CompiledOnce
from base.links import record_url
from citations.models import ChargeClass, Citation, CitationStatus
from impound.models import ImpoundCase
from licensing.models import Animal, Owner, Premises

from .models import Complaint, Entry, Kind, Outcome, Status
from .seizure_models import BarkingSeizure

COMPLAINT = "complaint"
ENTRY = "entry"
WARNING = "warning"
CITATION = "citation"
SEIZURE = "seizure"  # the barking-dog seizure (Glencoe 701 Subd. 5)
IMPOUNDMENT = "impoundment"

KIND_LABELS = {
    COMPLAINT: gettext_lazy("Complaint"),
    ENTRY: gettext_lazy("Entry or inspection"),
    WARNING: gettext_lazy("Warning"),
    CITATION: gettext_lazy("Citation"),
    SEIZURE: gettext_lazy("Seizure"),
    IMPOUNDMENT: gettext_lazy("Impoundment"),
}

# The columns every source yields, in this order (a UNION matches columns by position).
COLUMNS = (
    "cf_kind",  # COMPLAINT, ENTRY, ...
    "cf_at",  # when it happened: the time order
    "cf_pk",
    "cf_link",  # the key of the page a row links to (an entry's complaint)
    "cf_number",  # the number people quote (a citation's, an impound case's)
    "cf_code",  # a choice looked up in Python (a complaint's kind, a charge class)
    "cf_label",  # text as the record worded it (an entry's basis, a ground)
    "cf_section",
    "cf_status",
    "cf_due",  # the date that follows (a follow-up, an appearance, a hold's end)
    "cf_rank",  # at the same moment: a seizure before the impoundment it opens
)
RANKS = {COMPLAINT: 0, ENTRY: 1, WARNING: 2, CITATION: 3, SEIZURE: 4, IMPOUNDMENT: 5}


@dataclass(frozen=True)
class Scope:
    """Whose case file: exactly one of animal, owner, premises; and the user's cities."""

    jurisdiction_ids: tuple[int, ...]
    animal: Animal | None = None
    owner: Owner | None = None
    premises: Premises | None = None


@dataclass(frozen=True)
class CaseFileRow:
    kind: str
    at: datetime
    pk: int
    link: int
    number: str
    code: str
    label: str
    section: str
    status: str
    due: date | None
    rank: int

    @property
    def kind_label(self) -> str:
        return str(KIND_LABELS.get(self.kind, self.kind))

    @property
    def record_label(self) -> str:
        """The record as people name it; an entry or a warning belongs to its complaint."""
        if self.kind in (ENTRY, WARNING, SEIZURE):
            return _("%(kind)s (complaint %(n)s)") % {"kind": self.kind_label, "n": self.number}
        return f"{self.kind_label} {self.number}".strip()

    @property
    def what(self) -> str:
        """What happened, as the record worded it (a complaint's kind, an entry's basis)."""
        if self.kind == COMPLAINT:
            return str(_KIND_CHOICES.get(self.code, self.code))
        if self.kind == WARNING:  # the complaint's kind, and the officer's reason if any
            kind = str(_KIND_CHOICES.get(self.code, self.code))
            return f"{kind}: {self.label}" if self.label else kind
        if self.kind == CITATION:
            charge = _CHARGE_CHOICES.get(self.code, self.code)
            return f"{self.label} ({charge})"
        return self.label

    @property
    def status_label(self) -> str:
        labels = _STATUS_CHOICES.get(self.kind, {})
        return str(labels.get(self.status) or self.status)

    @property
    def url(self) -> str:
        name = _LINKS.get(self.kind)
        return record_url(name, self.link) if name else ""


_KIND_CHOICES = dict(Kind.choices)
_CHARGE_CHOICES = dict(ChargeClass.choices)
_STATUS_CHOICES = {
    COMPLAINT: dict(Status.choices),
    CITATION: dict(CitationStatus.choices),
    IMPOUNDMENT: dict(ImpoundCase._meta.get_field("status").choices),
}
_LINKS = {
    COMPLAINT: "complaints:detail",
    ENTRY: "complaints:detail",
    WARNING: "complaints:detail",
    CITATION: "citations:detail",
    SEIZURE: "complaints:seizure",
    IMPOUNDMENT: "impound:case_detail",
}


def _text(value) -> Value:
    return Value(value, output_field=CharField())


def _row(
    queryset: QuerySet,
    *,
    kind: str,
    at,
    link="pk",
    number=None,
    code=None,
    label=None,
    section=None,
    status=None,
    due=None,
) -> QuerySet:
    """A source reduced to ``COLUMNS``: every column an annotation, so the order is ours."""
    blank = _text("")
    return (
        queryset.order_by()
        .annotate(
            cf_kind=_text(kind),
            cf_at=Cast(at, DateTimeField()),
            cf_pk=Cast("pk", IntegerField()),
            cf_link=Cast(link, IntegerField()),
            cf_number=Cast(number, CharField()) if number else blank,
            cf_code=Cast(code, CharField()) if code else blank,
            cf_label=Cast(label, CharField()) if label else blank,
            cf_section=Cast(section, CharField()) if section else blank,
            cf_status=Cast(status, CharField()) if status else blank,
            cf_due=Cast(due, DateField()) if due else Value(None, output_field=DateField()),
            cf_rank=Value(RANKS.get(kind, len(RANKS)), output_field=IntegerField()),
        )
        .values_list(*COLUMNS)
    )


def _complaint_filter(scope: Scope, prefix: str = "") -> Q:
    if scope.animal is not None:
        return Q(**{f"{prefix}animal": scope.animal})
    if scope.owner is not None:
        return Q(**{f"{prefix}owner": scope.owner}) | Q(**{f"{prefix}animal__owner": scope.owner})
    return Q(**{f"{prefix}premises": scope.premises})


def complaint_rows(scope: Scope) -> QuerySet:
    found = Complaint.objects.filter(
        _complaint_filter(scope), jurisdiction_id__in=scope.jurisdiction_ids
    )
    return _row(
        found,
        kind=COMPLAINT,
        at=F("occurred_at"),
        number="pk",
        code="kind",
        label="address_line",
        status="status",
        due="follow_up_on",
    )


def entry_rows(scope: Scope) -> QuerySet:
    found = Entry.objects.filter(
        _complaint_filter(scope, "complaint__"),
        complaint__jurisdiction_id__in=scope.jurisdiction_ids,
    )
    return _row(
        found,
        kind=ENTRY,
        at=F("entered_at"),
        link="complaint_id",
        number="complaint_id",
        label="basis_label",
        section="basis_citation",
    )


def warning_rows(scope: Scope) -> QuerySet:
    """A warning is a complaint's outcome (RES-04), dated when the officer decided it."""
    found = Complaint.objects.filter(
        _complaint_filter(scope),
        jurisdiction_id__in=scope.jurisdiction_ids,
        outcome=Outcome.WARNING,
        outcome_at__isnull=False,
    )
    return _row(
        found,
        kind=WARNING,
        at=F("outcome_at"),
        number="pk",
        code="kind",
        label="outcome_reason",
        section="outcome_citation",
    )


def citation_rows(scope: Scope) -> QuerySet:
    found = Citation.objects.filter(
        _complaint_filter(scope), jurisdiction_id__in=scope.jurisdiction_ids
    )
    return _row(
        found,
        kind=CITATION,
        at=F("issued_at"),
        number="number",
        code="charge_class",
        label="violation_label",
        section="violation_citation",
        status="status",
        due="appearance_on",
    )


def seizure_rows(scope: Scope) -> QuerySet:
    """The barking-dog seizure (Glencoe 701 Subd. 5): when, where the notice was left."""
    found = BarkingSeizure.objects.filter(
        _complaint_filter(scope, "complaint__"), jurisdiction_id__in=scope.jurisdiction_ids
    )
    return _row(
        found,
        kind=SEIZURE,
        at=F("seized_at"),
        link="complaint_id",
        number="complaint_id",
        label="notice_place",
        section="citation",
    )


def impound_rows(scope: Scope) -> QuerySet:
    if scope.animal is not None:
        where = Q(animal=scope.animal)
    elif scope.owner is not None:
        where = Q(animal__owner=scope.owner)
    else:
        # A case opened from a complaint at the premises, or of an animal kept there.
        where = Q(animal__premises=scope.premises) | Q(
            pk__in=Complaint.objects.filter(premises=scope.premises).values("impound_case_id")
        )
    found = ImpoundCase.objects.filter(where, jurisdiction_id__in=scope.jurisdiction_ids)
    return _row(
        found,
        kind=IMPOUNDMENT,
        at=F("placed_at"),
        number="number",
        label="ground_label",
        section="ground_citation",
        status="status",
        due="hold_ends_on",
    )


# Sources from other apps (``register_source``): kind -> function(scope) -> queryset.
_extra_sources: dict[str, Callable[[Scope], QuerySet]] = {}


def register_source(kind: str, link_url: str, source: Callable[[Scope], QuerySet]) -> None:
    """Add a source (the barking-dog seizure: ``SEIZURE``); ``source`` returns a queryset
    built with ``row_columns`` and ``link_url`` names the page a row links to."""
    _extra_sources[kind] = source
    _LINKS[kind] = link_url
    _COMPILED.clear()


row_columns = _row  # the builder a registered source uses


def _union(scope: Scope) -> QuerySet:
    sources = [complaint_rows, entry_rows, warning_rows, citation_rows, seizure_rows]
    sources += [impound_rows]
    sources += [_extra_sources[k] for k in sorted(_extra_sources)]
    first, *rest = (source(scope) for source in sources)
    return first.union(*rest, all=True).order_by("cf_at", "cf_rank", "cf_pk")


def case_file(scope: Scope) -> list[CaseFileRow]:
    """The whole case file, oldest first, in one query."""
    whose = {
        name: record
        for name in ("animal", "owner", "premises")
        if (record := getattr(scope, name)) is not None
    }
    rows = _COMPILED.rows(jurisdiction_ids=tuple(scope.jurisdiction_ids), **whose)
    return [CaseFileRow(*row) for row in rows]


# Building the union (seven querysets of eleven annotations) and compiling it costs four
# times what the database takes to answer it, and its SQL is the same for every animal:
# it is compiled once per process (base.compiled; it was the animal page's largest
# cost). A source therefore uses the scope's record only as a filter value.
def _build(jurisdiction_ids, **whose) -> QuerySet:
    return _union(Scope(jurisdiction_ids=jurisdiction_ids, **whose))


_COMPILED = CompiledOnce(_build, version=lambda: tuple(sorted(_extra_sources)))
