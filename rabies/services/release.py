"""Release from quarantine: the city's gate and nothing else (RAB-16, RAB-20, RAB-21,
RAB-24; C42, C44, C45).

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
from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import QUARANTINE_OPEN, BiteReport, Quarantine, QuarantineStatus

from .common import city_rule, locked, refuse_unless_may
from .quarantine import exam_citation, release_gate

PERMISSION_KIND = "rabies_release_permission"
WRITTEN_PERMISSION = "written_permission"
VETERINARIAN_REPORT = "veterinarian_report"


def _d(value: date) -> str:
    return date_format(value)


@dataclass(frozen=True)
class Item:
    """One condition of release: recorded or missing, with its section."""

    key: str
    label: str
    citation: str
    done: bool
    detail: str = ""


def release_checklist(quarantine: Quarantine, *, on: date) -> list[Item]:
    """What the city's ordinance requires before release, each recorded or missing."""
    q = quarantine
    items = [
        Item(
            "period",
            _("The period is over (%(d)s)") % {"d": _d(q.ends_on)},
            q.end_citation,
            on >= q.ends_on,
            q.end_basis,
        )
    ]
    exam = city_rule(q.jurisdiction, "quarantine_exam_required", on=q.starts_on)
    if exam is not None and exam.value:
        detail = ""
        if q.examined_on:
            detail = _("Examined on %(d)s by %(n)s") % {
                "d": _d(q.examined_on),
                "n": q.examiner_name,
            }
        items.append(
            Item(
                "exam",
                _(
                    "An examination by the Rabies Control Authority or a veterinarian shows no "
                    "clinical signs of rabies"
                ),
                exam.citation,
                bool(q.examined_on and q.clinical_signs is False),
                detail,
            )
        )
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    if gate.kind == WRITTEN_PERMISSION:
        items.append(
            Item(
                "permission",
                gate.label,
                gate.citation,
                bool(q.permission_on and q.permission_by_name),
                _("Signed by %(n)s (%(c)s) on %(d)s")
                % {"n": q.permission_by_name, "c": q.permission_capacity, "d": _d(q.permission_on)}
                if q.permission_on
                else "",
            )
        )
    elif gate.kind == VETERINARIAN_REPORT:
        recorded = bool(q.report_no_signs and q.report_veterinarian and q.report_inspected_on)
        items.append(
            Item(
                "report",
                _(
                    "The veterinarian's written report that the animal was inspected and no "
                    "signs of rabies were observed"
                ),
                gate.citation,
                recorded,
                _("%(v)s, inspected on %(d)s")
                % {"v": q.report_veterinarian, "d": _d(q.report_inspected_on)}
                if recorded
                else "",
            )
        )
        dates = (q.report_received_by_officer_on, q.report_received_by_board_on)
        for i, name in enumerate(gate.recipients[:2]):
            received = dates[i]
            items.append(
                Item(
                    ("received_officer", "received_board")[i],
                    _("Received by %(who)s") % {"who": name},
                    gate.citation,
                    received is not None,
                    _d(received) if received else "",
                )
            )
    else:
        items.append(
            Item(
                "gate",
                _("%(city)s's ordinance names no release gate.") % {"city": q.jurisdiction},
                q.end_citation,
                True,
            )
        )
    return items


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


def _open(quarantine, what):
    """A step towards the release: possible while the release is."""
    refuse_unless_may(quarantine, "release", what)


@refusing()
@transaction.atomic
def permission_record(
    quarantine: Quarantine,
    *,
    actor,
    signer_name: str,
    capacity: str,
    permission_on: date,
    reason: str,
    now: datetime | None = None,
) -> Quarantine:
    """North Branch: the written permission to remove the animal from confinement (C42)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    gate = release_gate(quarantine.jurisdiction, on=quarantine.starts_on)
    if gate.kind != WRITTEN_PERMISSION:
        raise Refused.because(
            _("Written permission"),
            _("%(city)s's ordinance does not release by written permission.")
            % {"city": quarantine.jurisdiction},
            gate.citation,
        )
    _open(quarantine, _("a written permission"))
    if quarantine.permission_on:
        raise Refused.because(
            _("Written permission"),
            _("Already recorded: %(n)s on %(d)s.")
            % {"n": quarantine.permission_by_name, "d": _d(quarantine.permission_on)},
            gate.citation,
        )
    checks = []
    if not signer_name.strip():
        checks.append(("signer_name", _("Name who signed the permission.")))
    if capacity not in gate.signers:
        checks.append(
            ("capacity", _("Only %(who)s may sign it.") % {"who": _(" or ").join(gate.signers)})
        )
    if permission_on is None:
        checks.append(("permission_on", _("Enter the date of the permission.")))
    if not reason.strip():
        checks.append(("reason", _("Give the reason.")))
    if checks:
        raise Refused(
            [
                Refused.because(_("Written permission"), m, gate.citation, field=f).checks[0]
                for f, m in checks
            ]
        )
    refuse_if_future(permission_on, _("Permission dated"), field="permission_on", today=today)
    if permission_on < quarantine.starts_on:
        raise Refused.because(
            _("Permission dated"),
            _("The confinement began on %(d)s.") % {"d": _d(quarantine.starts_on)},
            gate.citation,
            field="permission_on",
        )
    quarantine.permission_by_name = signer_name.strip()
    quarantine.permission_capacity = capacity
    quarantine.permission_on = permission_on
    quarantine.permission_reason = reason.strip()[:300]
    quarantine.permission_document = _issue_permission(quarantine, gate, actor=actor, now=now)
    quarantine.save(
        update_fields=[
            "permission_by_name",
            "permission_capacity",
            "permission_on",
            "permission_reason",
            "permission_document",
        ]
    )
    Event.record(
        "rabies.quarantine.permission",
        quarantine,
        actor=actor,
        at=now,
        summary=_("Written permission of %(n)s (%(c)s), %(d)s: %(r)s")
        % {
            "n": quarantine.permission_by_name,
            "c": capacity,
            "d": _d(permission_on),
            "r": quarantine.permission_reason,
        },
        data={"citation": gate.citation, "document": quarantine.permission_document.pk},
    )
    return quarantine


def _issue_permission(quarantine, gate, *, actor, now):
    from notices.services import document_issue

    animal = quarantine.animal
    owner = animal.owner if animal else None
    return document_issue(
        kind=PERMISSION_KIND,
        template="rabies/release_permission.html",
        context={
            "quarantine": {
                "number": quarantine.number,
                "place": quarantine.get_place_display(),
                "home_address": quarantine.home_address,
                "starts_on": quarantine.starts_on,
                "ends_on": quarantine.ends_on,
                "end_citation": quarantine.end_citation,
            },
            "animal": {
                "name": animal.name if animal else "",
                "species": quarantine.get_species_display(),
                "description": quarantine.description,
            },
            "owner": {"name": owner.name, "address": owner.address} if owner else None,
            "permission": {
                "by": quarantine.permission_by_name,
                "capacity": quarantine.permission_capacity,
                "on": quarantine.permission_on,
                "reason": quarantine.permission_reason,
            },
            "gate": {"label": gate.label, "citation": gate.citation},
        },
        jurisdiction=quarantine.jurisdiction,
        actor=actor,
        title=_("Written permission to remove an animal from confinement"),
        number=quarantine.number,
        subject=quarantine,
        owner_user=getattr(owner, "user", None) if owner else None,
        now=now,
    )


@refusing()
@transaction.atomic
def report_record(
    quarantine: Quarantine,
    *,
    actor,
    veterinarian: str = "",
    inspected_on: date | None = None,
    no_signs: bool = False,
    report_file=None,
    received_by_officer_on: date | None = None,
    received_by_board_on: date | None = None,
    now: datetime | None = None,
) -> Quarantine:
    """Glencoe: the veterinarian's written report (C45) and the dates the officer and the
    Board received it; each may be recorded at a different time, none changed once set."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    q = quarantine
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    cite = gate.citation
    if gate.kind != VETERINARIAN_REPORT:
        raise Refused.because(
            _("Veterinarian's report"),
            _("%(city)s's ordinance does not release by a veterinarian's report.")
            % {"city": q.jurisdiction},
            cite,
        )
    _open(q, _("the veterinarian's report"))
    fields, said = [], []
    has_report = bool(q.report_veterinarian)
    if not has_report:
        checks = []
        if not veterinarian.strip():
            checks.append(("veterinarian", _("Name the veterinarian who wrote the report.")))
        if inspected_on is None:
            checks.append(("inspected_on", _("Enter the date the animal was inspected.")))
        if not no_signs:
            checks.append(
                (
                    "no_signs",
                    _(
                        "The report must state that no signs of rabies were observed; "
                        "if it does not, the animal is not released."
                    ),
                )
            )
        if not report_file:
            checks.append(("report_file", _("Upload the written report.")))
        if checks:
            raise Refused(
                [
                    Refused.because(_("Veterinarian's report"), m, cite, field=f).checks[0]
                    for f, m in checks
                ]
            )
        refuse_if_future(inspected_on, _("Inspected on"), field="inspected_on", today=today)
        if inspected_on < q.ends_on:
            raise Refused.because(
                _("Inspected on"),
                _("The report is of an inspection when the period is over: not before %(d)s.")
                % {"d": _d(q.ends_on)},
                q.end_citation,
                field="inspected_on",
            )
        q.report_veterinarian = veterinarian.strip()[:160]
        q.report_inspected_on = inspected_on
        q.report_no_signs = True
        q.report_file = report_file
        fields += ["report_veterinarian", "report_inspected_on", "report_no_signs", "report_file"]
        said.append(
            _("report of %(v)s, inspected on %(d)s: no signs of rabies")
            % {"v": q.report_veterinarian, "d": _d(inspected_on)}
        )
    for name, value, label in (
        ("report_received_by_officer_on", received_by_officer_on, gate.recipients[0]),
        ("report_received_by_board_on", received_by_board_on, gate.recipients[-1]),
    ):
        if value is None:
            continue
        if getattr(q, name) is not None:
            raise Refused.because(
                _("Received on"),
                _("Received by %(who)s on %(d)s is already recorded.")
                % {"who": label, "d": _d(getattr(q, name))},
                cite,
                field=name.removeprefix("report_"),
            )
        refuse_if_future(value, _("Received on"), field=name.removeprefix("report_"), today=today)
        if value < q.report_inspected_on:
            raise Refused.because(
                _("Received on"),
                _("The report cannot be received before the inspection (%(d)s).")
                % {"d": _d(q.report_inspected_on)},
                cite,
                field=name.removeprefix("report_"),
            )
        setattr(q, name, value)
        fields.append(name)
        said.append(_("received by %(who)s on %(d)s") % {"who": label, "d": _d(value)})
    if not fields:
        raise Refused.because(_("Veterinarian's report"), _("Nothing new to record."), cite)
    q.save(update_fields=fields)
    Event.record(
        "rabies.quarantine.report",
        q,
        actor=actor,
        at=now,
        summary=_("Veterinarian's report: %(s)s") % {"s": "; ".join(str(s) for s in said)},
        data={"citation": cite, "fields": fields},
    )
    return q


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
    _open(quarantine, _("a release"))
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
