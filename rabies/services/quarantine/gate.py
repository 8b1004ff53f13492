"""The city's release gate (RAB-16, RAB-24): what it is, and the records that clear it.

- North Branch (``quarantine_release_gate`` = written_permission, Sec. 6-98(3)): the
  written permission of one of ``quarantine_release_signers``, recorded (C42) and issued
  as a PDF.
- Glencoe (veterinarian_report, Subd. 21(E), 22(E)): the veterinarian's written report that
  the animal was inspected and no signs of rabies were observed, received by each of
  ``quarantine_release_report_recipients`` (the date each received it), C45.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import (
    Quarantine,
)

from ..common import city_rule, locked

PERMISSION_KIND = "rabies_release_permission"
WRITTEN_PERMISSION = "written_permission"
VETERINARIAN_REPORT = "veterinarian_report"


def _authority(name: str) -> str:
    """ "Animal control officer" → "the animal control officer"; a title ("Chief of
    Police", "Minnesota Board of Animal Health") keeps its capitals."""
    words = name.split()
    if len(words) > 1 and all(w.islower() for w in words[1:]):
        name = name[0].lower() + name[1:]
    return _("the %(who)s") % {"who": name}


def _joined(names, word) -> str:
    names = [_authority(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


@dataclass(frozen=True)
class Gate:
    """The city's release gate: what it is, its label and section (RAB-16, RAB-24)."""

    kind: str  # "written_permission" | "veterinarian_report" | ""
    label: str
    citation: str
    signers: tuple = ()
    recipients: tuple = ()


def release_gate(jurisdiction, *, on: date) -> Gate:
    rule = city_rule(jurisdiction, "quarantine_release_gate", on=on)
    if rule is None:
        return Gate("", "", "")
    if rule.value == "written_permission":
        signers = city_rule(jurisdiction, "quarantine_release_signers", on=on)
        names = tuple(signers.value) if signers else ()
        return Gate(
            rule.value,
            _("Written permission of %(who)s") % {"who": _joined(names, _("or"))},
            signers.citation if signers else rule.citation,
            signers=names,
        )
    recipients = city_rule(jurisdiction, "quarantine_release_report_recipients", on=on)
    names = tuple(recipients.value) if recipients else ()
    return Gate(
        rule.value,
        _("The veterinarian's written report received by %(who)s")
        % {"who": _joined(names, _("and"))},
        recipients.citation if recipients else rule.citation,
        recipients=names,
    )


def _check_permission(quarantine, gate: Gate, signer_name, capacity, permission_on, reason, today):
    """Once; signed by one the ordinance names, dated within the confinement, with a reason."""
    if quarantine.permission_on:
        raise Refused.because(
            _("Written permission"),
            _("Already recorded: %(n)s on %(d)s.")
            % {"n": quarantine.permission_by_name, "d": date_format(quarantine.permission_on)},
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
            _("The confinement began on %(d)s.") % {"d": date_format(quarantine.starts_on)},
            gate.citation,
            field="permission_on",
        )


PERMISSION_FIELDS = [
    "permission_by_name",
    "permission_capacity",
    "permission_on",
    "permission_reason",
    "permission_document",
]


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
    quarantine.require("release", _("a written permission"))
    today = timezone.localdate(now)
    _check_permission(quarantine, gate, signer_name, capacity, permission_on, reason, today)
    quarantine.permission_by_name = signer_name.strip()
    quarantine.permission_capacity = capacity
    quarantine.permission_on = permission_on
    quarantine.permission_reason = reason.strip()[:300]
    quarantine.permission_document = _issue_permission(quarantine, gate, actor=actor, now=now)
    quarantine.save(update_fields=PERMISSION_FIELDS)
    Event.record(
        "rabies.quarantine.permission",
        quarantine,
        actor=actor,
        at=now,
        summary=_("Written permission of %(n)s (%(c)s), %(d)s: %(r)s")
        % {
            "n": quarantine.permission_by_name,
            "c": capacity,
            "d": date_format(permission_on),
            "r": quarantine.permission_reason,
        },
        data={"citation": gate.citation, "document": quarantine.permission_document.pk},
    )
    return quarantine


def _permission_context(quarantine, gate: Gate) -> dict:
    """What the written permission (C42) says, frozen at issue."""
    animal = quarantine.animal
    owner = animal.owner if animal else None
    return {
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
    }


def _issue_permission(quarantine, gate, *, actor, now):
    from notices.services import document_issue

    owner = quarantine.animal.owner if quarantine.animal else None
    return document_issue(
        kind=PERMISSION_KIND,
        template="rabies/release_permission.html",
        context=_permission_context(quarantine, gate),
        jurisdiction=quarantine.jurisdiction,
        actor=actor,
        title=_("Written permission to remove an animal from confinement"),
        number=quarantine.number,
        subject=quarantine,
        owner_user=getattr(owner, "user", None) if owner else None,
        now=now,
    )


@dataclass(frozen=True)
class VetReport:
    """Glencoe's veterinarian's report and the days it was received: the form's fields."""

    veterinarian: str = ""
    inspected_on: date | None = None
    no_signs: bool = False
    report_file: object = None
    received_by_officer_on: date | None = None
    received_by_board_on: date | None = None


def _record_report(q: Quarantine, r: VetReport, cite: str, today: date) -> tuple[list, list]:
    """The report itself, once: named, dated when the period is over, stating no signs of
    rabies, its copy attached. Returns (fields set, what is said of them)."""
    if q.report_veterinarian:
        return [], []
    checks = []
    if not r.veterinarian.strip():
        checks.append(("veterinarian", _("Name the veterinarian who wrote the report.")))
    if r.inspected_on is None:
        checks.append(("inspected_on", _("Enter the date the animal was inspected.")))
    if not r.no_signs:
        checks.append(
            (
                "no_signs",
                _(
                    "The report must state that no signs of rabies were observed; "
                    "if it does not, the animal is not released."
                ),
            )
        )
    if not r.report_file:
        checks.append(("report_file", _("Upload the written report.")))
    if checks:
        raise Refused(
            [
                Refused.because(_("Veterinarian's report"), m, cite, field=f).checks[0]
                for f, m in checks
            ]
        )
    refuse_if_future(r.inspected_on, _("Inspected on"), field="inspected_on", today=today)
    if r.inspected_on < q.ends_on:
        raise Refused.because(
            _("Inspected on"),
            _("The report is of an inspection when the period is over: not before %(d)s.")
            % {"d": date_format(q.ends_on)},
            q.end_citation,
            field="inspected_on",
        )
    q.report_veterinarian = r.veterinarian.strip()[:160]
    q.report_inspected_on = r.inspected_on
    q.report_no_signs = True
    q.report_file = r.report_file
    fields = ["report_veterinarian", "report_inspected_on", "report_no_signs", "report_file"]
    said = _("report of %(v)s, inspected on %(d)s: no signs of rabies") % {
        "v": q.report_veterinarian,
        "d": date_format(r.inspected_on),
    }
    return fields, [said]


def _record_receipts(q: Quarantine, r: VetReport, gate: Gate, today: date) -> tuple[list, list]:
    """The day each recipient received the report: once each, not before the inspection.
    Returns (fields set, what is said of them)."""
    fields, said = [], []
    for name, value, label in (
        ("report_received_by_officer_on", r.received_by_officer_on, gate.recipients[0]),
        ("report_received_by_board_on", r.received_by_board_on, gate.recipients[-1]),
    ):
        if value is None:
            continue
        field = name.removeprefix("report_")
        if getattr(q, name) is not None:
            raise Refused.because(
                _("Received on"),
                _("Received by %(who)s on %(d)s is already recorded.")
                % {"who": label, "d": date_format(getattr(q, name))},
                gate.citation,
                field=field,
            )
        refuse_if_future(value, _("Received on"), field=field, today=today)
        if value < q.report_inspected_on:
            raise Refused.because(
                _("Received on"),
                _("The report cannot be received before the inspection (%(d)s).")
                % {"d": date_format(q.report_inspected_on)},
                gate.citation,
                field=field,
            )
        setattr(q, name, value)
        fields.append(name)
        said.append(_("received by %(who)s on %(d)s") % {"who": label, "d": date_format(value)})
    return fields, said


@refusing()
@transaction.atomic
def report_record(
    quarantine: Quarantine, *, actor, now: datetime | None = None, **report
) -> Quarantine:
    """Glencoe: the veterinarian's written report (C45) and the dates the officer and the
    Board received it (``report``: the fields of ``VetReport``); each may be recorded at a
    different time, none changed once set."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    r = VetReport(**report)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    q = locked(Quarantine, quarantine.pk)
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    if gate.kind != VETERINARIAN_REPORT:
        raise Refused.because(
            _("Veterinarian's report"),
            _("%(city)s's ordinance does not release by a veterinarian's report.")
            % {"city": q.jurisdiction},
            gate.citation,
        )
    q.require("release", _("the veterinarian's report"))
    fields, said = _record_report(q, r, gate.citation, today)
    received, said_received = _record_receipts(q, r, gate, today)
    fields, said = fields + received, said + said_received
    if not fields:
        raise Refused.because(
            _("Veterinarian's report"), _("Nothing new to record."), gate.citation
        )
    q.save(update_fields=fields)
    Event.record(
        "rabies.quarantine.report",
        q,
        actor=actor,
        at=now,
        summary=_("Veterinarian's report: %(s)s") % {"s": "; ".join(str(s) for s in said)},
        data={"citation": gate.citation, "fields": fields},
    )
    return q
