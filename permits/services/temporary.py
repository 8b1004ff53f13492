"""Temporary conditional use permits for a traveling circus or show keeping wild animals
(Glencoe 701 Subd. 32(A), conditions under Subd. 35; rules.md WLD-04, WLD-09, C51).

The system checks the dates (no more than the profile's days) and that a state permit
number or the Minn. Stat. 97A.401 exemption is recorded; whether to issue is a person's
decision, recorded with who, in what capacity, when and why. Approving issues the
permit: numbered, and its document (the PDF with the conditions) archived as issued.
"""

from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_unless_serves
from notices.services import document_issue
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation, rule_in_force
from permits.models import Decision, PermitKind, TemporaryPermit
from permits.services.common import number_allocate, permit_or_refuse

MAX_DAYS_KEY = "wild_temp_cup_max_days"
TEMPLATE = "permits/temporary_permit.html"


@dataclass(frozen=True)
class TemporaryRequest:
    """What the system checks of an application: the dates, the state permit (or the
    exemption from it), the species and the conditions."""

    starts_on: date
    ends_on: date
    state_permit_number: str = ""
    state_exempt: bool = False
    exemption_basis: str = ""
    species: str = ""
    conditions: str = ""

    @classmethod
    def of(cls, fields: dict) -> "TemporaryRequest":
        """The application's fields this check reads (the others are left out)."""
        return cls(**{f.name: fields[f.name] for f in dataclass_fields(cls) if f.name in fields})


def temporary_checks(
    jurisdiction: Jurisdiction, request: TemporaryRequest, *, on: date
) -> list[Check]:
    """What the system checks before a temporary permit may be applied for (WLD-04)."""
    rule = rule_in_force(jurisdiction, MAX_DAYS_KEY, on=on)
    return [
        *_date_checks(request, rule),
        *_state_permit_checks(request, rule),
        *_text_checks(request, rule),
    ]


def _date_checks(request: TemporaryRequest, rule) -> list[Check]:
    days = (request.ends_on - request.starts_on).days + 1
    if request.ends_on < request.starts_on:
        message = _("The last day is before the first day.")
        return [Check(_("Dates"), "fail", message, "", "ends_on")]
    if days > rule.value:
        message = _("%(days)s days asked for; a temporary permit is for at most %(max)s.") % {
            "days": days,
            "max": rule.display(),
        }
        return [Check(_("Dates"), "fail", message, rule.citation, "ends_on")]
    return []


def _state_permit_checks(request: TemporaryRequest, rule) -> list[Check]:
    exempt = request.state_exempt and request.exemption_basis.strip()
    if request.state_permit_number.strip() or exempt:
        return []
    message = _(
        "Give the state permit number, or record the exemption under "
        "Minn. Stat. 97A.401 and its basis."
    )
    return [Check(_("State permit"), "fail", message, rule.citation, "state_permit_number")]


def _text_checks(request: TemporaryRequest, rule) -> list[Check]:
    checks = []
    if not [line for line in request.species.splitlines() if line.strip()]:
        checks.append(
            Check(_("Species"), "fail", _("List the species kept."), rule.citation, "species")
        )
    if not request.conditions.strip():
        message = _("State the conditions that protect the public and prevent cruelty or neglect.")
        checks.append(Check(_("Conditions"), "fail", message, rule.citation, "conditions"))
    return checks


@refusing()
@transaction.atomic
def temporary_apply(
    *, jurisdiction: Jurisdiction, actor, on: date | None = None, **fields
) -> TemporaryPermit:
    """Record an application; refused with each failed check next to its field."""
    on = on or timezone.localdate()
    refuse_unless_serves(actor, jurisdiction)
    permit_or_refuse(jurisdiction, PermitKind.TEMPORARY, on=on)
    request = TemporaryRequest.of(fields)
    failed = [c for c in temporary_checks(jurisdiction, request, on=on) if c.blocks]
    if failed:
        raise Refused(failed)
    if not fields.get("state_exempt"):
        fields["exemption_basis"] = ""
    permit = TemporaryPermit.objects.create(
        jurisdiction=jurisdiction,
        applied_on=on,
        entered_by=actor,
        max_days_citation=rule_in_force(jurisdiction, MAX_DAYS_KEY, on=on).citation,
        **fields,
    )
    Event.record(
        "permits.temporary.applied",
        permit,
        actor=actor,
        jurisdiction=jurisdiction,
        summary=_("Temporary permit applied for by %(a)s, %(s)s to %(e)s")
        % {"a": permit.applicant_name, "s": permit.starts_on, "e": permit.ends_on},
    )
    return permit


@refusing()
@transaction.atomic
def temporary_decide(
    *,
    permit: TemporaryPermit,
    decision: str,
    decided_by_name: str,
    decided_by_capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    now: datetime | None = None,
) -> TemporaryPermit:
    """Record the decision; an approval issues the permit and its document (WLD-04)."""
    now = now or timezone.now()
    permit = TemporaryPermit.objects.select_for_update().get(pk=permit.pk)
    refuse_unless_serves(actor, permit.jurisdiction)
    approved = decision == Decision.APPROVED
    permit.ensure("approve" if approved else "deny")
    if not approved and not reasons.strip():
        raise Refused.because(
            _("Reasons"), _("Give the reasons for the denial."), field="decision_reasons"
        )
    if approved and permit.ends_on < timezone.localdate(now):
        raise Refused.because(
            _("Dates"),
            _("The permit's last day (%(d)s) has passed; it cannot be issued.")
            % {"d": date_format(permit.ends_on)},
            permit.max_days_citation,
        )
    permit.decision = decision
    permit.decided_by_name = decided_by_name
    permit.decided_by_capacity = decided_by_capacity
    permit.decided_on = decided_on
    permit.decision_reasons = reasons
    permit.decision_recorded_by = actor
    permit.decision_recorded_at = now
    if approved:
        permit.number = number_allocate(
            permit.jurisdiction, PermitKind.TEMPORARY, year=decided_on.year
        )
        permit.document = _issue_document(permit, actor=actor, now=now)
    permit.apply(
        "approve" if approved else "deny",
        actor=actor,
        at=now,
        summary=_("%(d)s by %(who)s (%(cap)s) on %(on)s")
        % {
            "d": permit.get_decision_display(),
            "who": decided_by_name,
            "cap": decided_by_capacity,
            "on": decided_on,
        },
        data={"decision": decision, "reasons": reasons},
        fields=DECISION_FIELDS,
    )
    return permit


# What the decision sets on the row beside its status (an approval: its number and
# document too).
DECISION_FIELDS = (
    "decision",
    "decided_by_name",
    "decided_by_capacity",
    "decided_on",
    "decision_reasons",
    "decision_recorded_by",
    "decision_recorded_at",
    "number",
    "document",
)


def _issue_document(permit: TemporaryPermit, *, actor, now: datetime):
    """The permit as issued (C51): frozen first, rendered, archived with its hash."""
    context = {
        "permit": {
            "applicant_name": permit.applicant_name,
            "applicant_address": permit.applicant_address,
            "show_name": permit.show_name,
            "location": permit.location,
            "species": permit.species_list,
            "state_permit_number": permit.state_permit_number,
            "state_exempt": permit.state_exempt,
            "exemption_basis": permit.exemption_basis,
            "starts_on": permit.starts_on,
            "ends_on": permit.ends_on,
            "days": permit.days,
            "conditions": [ln.strip() for ln in permit.conditions.splitlines() if ln.strip()],
            "decided_by_name": permit.decided_by_name,
            "decided_by_capacity": permit.decided_by_capacity,
            "decided_on": permit.decided_on,
        },
        "section": permit.max_days_citation,
        "cruelty_section": rule_citation(permit.jurisdiction, "WLD-09"),
    }
    return document_issue(
        kind="temporary_permit",
        template=TEMPLATE,
        context=context,
        jurisdiction=permit.jurisdiction,
        actor=actor,
        title=_("Temporary conditional use permit: wild animals"),
        number=permit.number,
        subject=permit,
        now=now,
    )
