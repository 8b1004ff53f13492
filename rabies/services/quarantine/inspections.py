"""A home confinement's inspections and the owner's reports (RAB-17, RAB-18), the move of a
breached confinement to the facility (NB Sec. 6-98(6); GL 701 Subd. 21(B)), and the
officer's answer to a question put before a person."""

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import Pound
from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import (
    Inspection,
    InspectionKind,
    Quarantine,
    QuarantinePlace,
)

from ..common import city_rule, locked
from .gate import release_gate
from .ordering import facility_intake


def inspection_citation(quarantine) -> str:
    j = quarantine.jurisdiction
    return rule_citation(j, "RAB-17") or (
        quarantine.conditions[0]["citation"] if quarantine.conditions else quarantine.end_citation
    )


def facility_citation(quarantine) -> str:
    """The section that lets the officer move a breached home confinement to the facility
    (NB Sec. 6-98(6); Glencoe 701 Subd. 21(B) confiscation)."""
    j = quarantine.jurisdiction
    cite = rule_citation(j, "RAB-19")
    if cite:
        return cite
    rule = city_rule(j, "home_confinement_conditions", on=quarantine.starts_on)
    return rule.citation if rule else quarantine.end_citation


@dataclass
class InspectionReport:
    """An inspection or an owner's report, as logged: the form's fields."""

    at: datetime
    inspector_name: str
    kind: str = InspectionKind.INSPECTION
    checks: tuple = ()
    compliant: bool = True
    notes: str = ""

    def __post_init__(self):
        self.inspector_name, self.notes = self.inspector_name.strip(), self.notes.strip()


def _check_report(quarantine: Quarantine, report: InspectionReport, cite: str, now) -> None:
    refuse_if_future(
        report.at,
        _("Date and time"),
        message=_("The time cannot be in the future."),
        field="at",
        now=now,
    )
    if timezone.localtime(report.at).date() < quarantine.starts_on:
        raise Refused.because(
            _("Date and time"),
            _("The confinement began on %(d)s.") % {"d": date_format(quarantine.starts_on)},
            cite,
            field="at",
        )
    if not report.inspector_name:
        raise Refused.because(_("Inspected by"), _("Name who inspected."), field="inspector_name")
    if report.kind == InspectionKind.OWNER_REPORT and not report.notes:
        raise Refused.because(_("Notes"), _("Say what the owner reported."), cite, field="notes")


def _flag_for_the_officer(quarantine, report: InspectionReport, cite: str, *, actor, now):
    """An owner's report, or a confinement not kept as ordered, is put before a person."""
    on = timezone.localdate(now)
    if report.kind == InspectionKind.OWNER_REPORT:
        quarantine.flag(
            _("The owner reported a change in the animal's health or behavior: %(n)s")
            % {"n": report.notes},
            cite,
            on=on,
            actor=actor,
            at=now,
        )
    elif not report.compliant:
        quarantine.flag(
            _("Not kept as the order requires: the officer may move it to the facility."),
            facility_citation(quarantine),
            on=on,
            actor=actor,
            at=now,
        )


@refusing()
@transaction.atomic
def inspection_log(
    quarantine: Quarantine, *, actor, now: datetime | None = None, **report
) -> Inspection:
    """Log an inspection of a home confinement, or the owner's report of a change in the
    animal's health or behavior (flagged for the officer); ``report``: the fields of
    ``InspectionReport``."""
    now = now or timezone.now()
    report = InspectionReport(**report)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    # Inspections are of a home confinement: the state a breach moves to the facility from.
    quarantine.require("to_facility", _("an inspection"))
    cite = inspection_citation(quarantine)
    _check_report(quarantine, report, cite, now)
    known = [c["text"] for c in quarantine.conditions]
    inspection = Inspection.objects.create(
        quarantine=quarantine,
        jurisdiction=quarantine.jurisdiction,
        kind=report.kind,
        at=report.at,
        inspector_name=report.inspector_name,
        checks=[{"text": t, "kept": t in report.checks} for t in known],
        compliant=report.compliant,
        notes=report.notes,
        recorded_by=actor,
    )
    kept = _("kept as the order requires")
    not_kept = _("not kept as the order requires")
    Event.record(
        "rabies.quarantine.inspected",
        quarantine,
        actor=actor,
        at=now,
        summary=_("%(kind)s: %(result)s")
        % {"kind": inspection.get_kind_display(), "result": kept if report.compliant else not_kept},
        data={"inspection": inspection.pk, "compliant": report.compliant},
    )
    _flag_for_the_officer(quarantine, report, cite, actor=actor, now=now)
    return inspection


def last_breach(quarantine) -> Inspection | None:
    return (
        quarantine.inspections.filter(compliant=False, kind=InspectionKind.INSPECTION)
        .order_by("-at", "-pk")
        .first()
    )


@refusing()
@transaction.atomic
def quarantine_to_facility(
    quarantine: Quarantine,
    *,
    pound: Pound,
    actor,
    reason: str,
    now: datetime | None = None,
) -> Quarantine:
    """A breach: move the animal to the facility for the days left (NB 6-98(6); GL
    21(B)); its impound case holds to the same end, counted from the original start."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    quarantine.require("to_facility", _("a move to the facility"))
    cite = facility_citation(quarantine)
    if last_breach(quarantine) is None:
        raise Refused.because(
            _("Breach"),
            _("No inspection found the animal not kept as the order requires."),
            cite,
        )
    if not reason.strip():
        raise Refused.because(_("Why"), _("Say why it is moved."), cite, field="reason")
    gate = release_gate(quarantine.jurisdiction, on=today)
    quarantine.impound_case = facility_intake(
        quarantine,
        pound,
        actor,
        now,
        seized_where=quarantine.home_address,
        start=quarantine.starts_on,
        gate=gate,
    )
    quarantine.place = QuarantinePlace.FACILITY
    quarantine.moved_to_facility_on = today
    quarantine.move_reason = reason.strip()[:300]
    quarantine.apply(
        "to_facility",
        actor=actor,
        at=now,
        summary=_("Moved to the facility for the %(n)s days left (impound case %(c)s): %(r)s")
        % {
            "n": quarantine.days_left(today),
            "c": quarantine.impound_case.number,
            "r": reason.strip(),
        },
        citation=cite,
        data={"impound_case": quarantine.impound_case.pk},
        fields=["impound_case", "place", "moved_to_facility_on", "move_reason"],
    )
    if quarantine.attention:
        quarantine.resolve_flag(note=_("Moved to the facility."), actor=actor, at=now)
    return quarantine


@refusing()
@transaction.atomic
def quarantine_resolve(quarantine: Quarantine, *, actor, note: str, now: datetime | None = None):
    """The officer answers the question put before a person (an owner's report, a breach,
    signs of rabies), saying what was done; the flag and the answer stay in the history."""
    now = now or timezone.now()
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    if not quarantine.attention:
        raise Refused.because(_("Needs a person"), _("Nothing is waiting for a person."))
    if not note.strip():
        raise Refused.because(_("What was done"), _("Say what was done."), field="note")
    quarantine.resolve_flag(note=note.strip()[:300], actor=actor, at=now)
    return quarantine
