"""Release from quarantine: the period, the examination and the city's gate, nothing else
(RAB-16, RAB-20, RAB-21, RAB-24; C42, C44, C45).

- Never before the stored end of the period (``ends_on``, with its section).
- Where ``quarantine_exam_required`` (Glencoe 21(A), (B)): an examination showing no
  clinical signs of rabies.
- North Branch (``quarantine_release_gate`` = written_permission, Sec. 6-98(3)): the
  written permission of one of ``quarantine_release_signers``, recorded (C42) and issued
  as a PDF.
- Glencoe (veterinarian_report, Subd. 21(E), 22(E)): the veterinarian's written report that
  the animal was inspected and no signs of rabies were observed, received by each of
  ``quarantine_release_report_recipients`` (the date each received it), C45.

A facility quarantine's release clears the impound case's release gate only; the owner
then redeems through impound (its fees, ``case_redeem``), which this module never skips.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import CaseGate, GateKind
from kernel.checks import refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import (
    QUARANTINE_OPEN,
    BiteReport,
    Quarantine,
    QuarantineStatus,
)

from ..common import city_rule, locked
from .examination import exam_citation
from .gate import VETERINARIAN_REPORT, WRITTEN_PERMISSION, release_gate


@dataclass(frozen=True)
class Item:
    """One condition of release: recorded or missing, with its section."""

    key: str
    label: str
    citation: str
    done: bool
    detail: str = ""


def _period_item(q: Quarantine, on: date) -> Item:
    return Item(
        "period",
        _("The period is over (%(d)s)") % {"d": date_format(q.ends_on)},
        q.end_citation,
        on >= q.ends_on,
        q.end_basis,
    )


def _exam_items(q: Quarantine) -> list[Item]:
    """Glencoe 21(A), (B): an examination showing no clinical signs of rabies."""
    exam = city_rule(q.jurisdiction, "quarantine_exam_required", on=q.starts_on)
    if exam is None or not exam.value:
        return []
    detail = ""
    if q.examined_on:
        detail = _("Examined on %(d)s by %(n)s") % {
            "d": date_format(q.examined_on),
            "n": q.examiner_name,
        }
    label = _(
        "An examination by the Rabies Control Authority or a veterinarian shows no clinical "
        "signs of rabies"
    )
    done = bool(q.examined_on and q.clinical_signs is False)
    return [Item("exam", label, exam.citation, done, detail)]


def _permission_items(q: Quarantine, gate) -> list[Item]:
    detail = ""
    if q.permission_on:
        detail = _("Signed by %(n)s (%(c)s) on %(d)s") % {
            "n": q.permission_by_name,
            "c": q.permission_capacity,
            "d": date_format(q.permission_on),
        }
    done = bool(q.permission_on and q.permission_by_name)
    return [Item("permission", gate.label, gate.citation, done, detail)]


def _report_items(q: Quarantine, gate) -> list[Item]:
    recorded = bool(q.report_no_signs and q.report_veterinarian and q.report_inspected_on)
    detail = ""
    if recorded:
        detail = _("%(v)s, inspected on %(d)s") % {
            "v": q.report_veterinarian,
            "d": date_format(q.report_inspected_on),
        }
    label = _(
        "The veterinarian's written report that the animal was inspected and no signs of "
        "rabies were observed"
    )
    items = [Item("report", label, gate.citation, recorded, detail)]
    dates = (q.report_received_by_officer_on, q.report_received_by_board_on)
    for key, name, received in zip(
        ("received_officer", "received_board"), gate.recipients[:2], dates, strict=False
    ):
        items.append(
            Item(
                key,
                _("Received by %(who)s") % {"who": name},
                gate.citation,
                received is not None,
                date_format(received) if received else "",
            )
        )
    return items


def _gate_items(q: Quarantine) -> list[Item]:
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    if gate.kind == WRITTEN_PERMISSION:
        return _permission_items(q, gate)
    if gate.kind == VETERINARIAN_REPORT:
        return _report_items(q, gate)
    label = _("%(city)s's ordinance names no release gate.") % {"city": q.jurisdiction}
    return [Item("gate", label, q.end_citation, True)]


def release_checklist(quarantine: Quarantine, *, on: date) -> list[Item]:
    """What the city's ordinance requires before release, each recorded or missing."""
    q = quarantine
    return [_period_item(q, on), *_exam_items(q), *_gate_items(q)]


def missing(items) -> list[Item]:
    return [i for i in items if not i.done]


def _refusal(items) -> Refused:
    return Refused(
        [
            Refused.because(
                _("Release"), _("Missing: %(item)s.") % {"item": i.label}, i.citation
            ).checks[0]
            for i in items
        ]
    )


def _clearing_record(q) -> str:
    if q.permission_on:
        return _("Written permission of %(n)s (%(c)s), %(d)s") % {
            "n": q.permission_by_name,
            "c": q.permission_capacity,
            "d": date_format(q.permission_on),
        }
    if q.report_veterinarian:
        return _(
            "Veterinarian's report of %(v)s (inspected %(d)s), received by the officer %(o)s "
            "and the Board %(b)s"
        ) % {
            "v": q.report_veterinarian,
            "d": date_format(q.report_inspected_on),
            "o": date_format(q.report_received_by_officer_on),
            "b": date_format(q.report_received_by_board_on),
        }
    return _("Released from quarantine %(n)s") % {"n": q.number}


@refusing()
@transaction.atomic
def quarantine_release(quarantine: Quarantine, *, actor, now: datetime | None = None):
    """Release the animal from quarantine once every item of the city's gate is recorded."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    if quarantine.status == QuarantineStatus.SIGNS:
        raise Refused.because(
            _("Release"),
            _("Signs of rabies were found at the examination: the animal is not released."),
            exam_citation(quarantine),
        )
    quarantine.require("release", _("a release"))
    items = release_checklist(quarantine, on=today)
    lacking = missing(items)
    if lacking:
        raise _refusal(lacking)
    record = _clearing_record(quarantine)
    impound = quarantine.impound_case
    if impound is not None:
        for gate in CaseGate.objects.select_for_update().filter(
            case=impound, kind=GateKind.RELEASE_ORDER, cleared_at__isnull=True
        ):
            gate.cleared_at, gate.cleared_by, gate.clearing_record = now, actor, record[:300]
            gate.save(update_fields=["cleared_at", "cleared_by", "clearing_record"])
            Event.record(
                "impound.gate.cleared",
                impound,
                actor=actor,
                at=now,
                summary=_("%(label)s: %(record)s") % {"label": gate.label, "record": record},
                data={"gate": gate.pk, "kind": gate.kind, "citation": gate.citation},
            )
    quarantine.released_on, quarantine.released_by = today, actor
    quarantine.apply(
        "release",
        actor=actor,
        at=now,
        summary=_("Released from quarantine: %(r)s") % {"r": record}
        + (
            _("; the owner redeems from impound case %(n)s (fees)") % {"n": impound.number}
            if impound
            else ""
        ),
        citation=items[-1].citation,
        data={"impound_case": impound.pk if impound else None},
        fields=["released_on", "released_by"],
    )
    _close_bite_after_release(quarantine, actor=actor, at=now, record=record)
    return quarantine


def _close_bite_after_release(quarantine, *, actor, at, record) -> None:
    """The bite's case ends with its confinement (Appendix B4): once the last quarantine
    ordered for it is released, the bite report is closed with the release as its note."""
    bite = quarantine.bite_report
    if bite is None or not bite.may("close_after_quarantine"):
        return
    if bite.quarantines.filter(status__in=QUARANTINE_OPEN).exists():
        return
    bite = locked(BiteReport, bite.pk)
    bite.closed_on = timezone.localdate(at)
    bite.closing_note = (_("Released from quarantine: %(r)s") % {"r": record})[:300]
    bite.apply(
        "close_after_quarantine",
        actor=actor,
        at=at,
        summary=_("Closed: the animal was released from quarantine %(n)s")
        % {"n": quarantine.number},
        data={"quarantine": quarantine.pk},
        fields=["closed_on", "closing_note"],
    )
