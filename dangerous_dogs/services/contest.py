"""The owner's written request for a hearing (Glencoe 701 Subd. 15(B); C25, DD-04).

Delivered to the animal control officer or the police, in writing, within the contest
period counted from the owner's receipt of the notice of intent: in time the case is
CONTESTED (the City Attorney reviews it next). A late request is recorded and put before
a person (the case's attention flag), who decides: accepted, the case is contested;
refused, it stays where it is. The decision is a ``notices.Decision``.
"""

from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from dangerous_dogs.models import CaseStatus, DesignationCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from .investigation import required

LATE_CONTEST_KIND = "dd_late_contest"

# Where the written request for a hearing may be delivered (Subd. 15(B), C25).
RECIPIENTS = {
    "officer": _lazy("The animal control officer"),
    "police": _lazy("The police department"),
}


@refusing()
@transaction.atomic
def contest_received(
    *,
    case: DesignationCase,
    received_on: date,
    delivered_to: str,
    actor,
    in_writing: bool = True,
    now: datetime | None = None,
) -> DesignationCase:
    """The owner's written request for a hearing. In time: CONTESTED. Late: a person
    decides (``late_contest_decide``); the case stays where it is meanwhile."""
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    section = case.contest_citation or rule_citation(case.jurisdiction, "DD-04")
    _check_contest(case, delivered_to, in_writing, section)
    refuse_if_future(
        received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
    )
    if received_on < case.notice_received_on:
        raise Refused.because(
            _("Received on"),
            _("The owner received the notice on %(date)s: the request cannot come before it.")
            % {"date": date_format(case.notice_received_on)},
            field="received_on",
        )
    case.contest_received_on = received_on
    case.contest_received_by = str(RECIPIENTS[delivered_to])
    fields = ["contest_received_on", "contest_received_by"]
    data = {
        "received_on": str(received_on),
        "delivered_to": delivered_to,
        "contest_deadline": str(case.contest_deadline),
    }
    if received_on > case.contest_deadline:
        _contest_late(case, section, actor=actor, now=now, fields=fields, data=data)
        return case
    case.apply(
        "contest",
        actor=actor,
        at=now,
        summary=_("Written request for a hearing received on %(date)s, in time (%(section)s)")
        % {"date": date_format(received_on), "section": section},
        citation=section,
        data=data,
        fields=fields,
    )
    return case


def _check_contest(case: DesignationCase, delivered_to: str, in_writing: bool, section) -> None:
    label = _("Request for a hearing")
    if case.status == CaseStatus.NOTICE_ISSUED:
        raise Refused.because(
            label,
            _("Record the owner's receipt of the notice of intent first: the period runs from it."),
            section,
        )
    case.ensure("contest")
    if case.contest_received_on is not None:
        raise Refused.because(
            label,
            _("A request was recorded already (%(date)s).")
            % {"date": date_format(case.contest_received_on)},
            section,
        )
    if delivered_to not in RECIPIENTS:
        raise Refused.because(
            _("Delivered to"),
            _("The request is delivered to the animal control officer or the police."),
            section,
            field="delivered_to",
        )
    if not in_writing:
        raise Refused.because(
            _("In writing"), _("The request must be made in writing."), section, field="in_writing"
        )


def _contest_late(case: DesignationCase, section: str, *, actor, now, fields, data) -> None:
    """A request after the deadline: recorded and put before a person, who decides."""
    case.contest_late = True
    case.save(update_fields=[*fields, "contest_late"])
    words = {
        "date": date_format(case.contest_received_on),
        "due": date_format(case.contest_deadline),
    }
    Event.record(
        "dangerous_dogs.case.contest_late",
        case,
        actor=actor,
        at=now,
        summary=_("Written request for a hearing received on %(date)s, after %(due)s") % words,
        data=data,
    )
    case.flag(
        _("A late request for a hearing: a person decides (received %(date)s, due by %(due)s).")
        % words,
        section,
        on=timezone.localdate(now),
        actor=actor,
        at=now,
    )


def late_contest_pending(case: DesignationCase) -> bool:
    """A late request awaits a person's decision."""
    if not case.contest_late:
        return False
    return not Decision.objects.filter(
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        kind=LATE_CONTEST_KIND,
    ).exists()


@refusing()
@transaction.atomic
def late_contest_decide(
    *,
    case: DesignationCase,
    accept: bool,
    decided_by_name: str,
    capacity: str,
    reasons: str,
    actor,
    decided_on: date | None = None,
    now: datetime | None = None,
) -> Decision:
    """A person decides a late request: accepted, the case is contested; refused, it
    stays where it is and the flag is cleared. Recorded as a ``Decision``."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    decided_on = decided_on or today
    j = case.jurisdiction
    refuse_unless_serves(actor, j)
    section = case.contest_citation or rule_citation(j, "DD-04")
    if not case.may("contest"):
        raise case.not_now(_("deciding a late request"))
    if not late_contest_pending(case):
        raise Refused.because(
            _("Late request"), _("No late request for a hearing awaits a decision."), section
        )
    required(
        {
            "decided_by_name": (_("Decided by"), decided_by_name),
            "capacity": (_("In the capacity of"), capacity),
            "reasons": (_("Reasons"), reasons),
        }
    )
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
    decision = Decision.objects.create(
        jurisdiction=j,
        subject=case,
        kind=LATE_CONTEST_KIND,
        outcome=DecisionOutcome.APPROVED if accept else DecisionOutcome.DENIED,
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=capacity.strip(),
        decided_on=decided_on,
        reasons=reasons.strip(),
        citation=section,
        recorded_by=actor,
    )
    _settle_late_request(case, decision, accept, actor=actor, now=now)
    return decision


def _settle_late_request(case, decision: Decision, accept: bool, *, actor, now) -> None:
    """The flag is cleared either way; accepted, the case is contested."""
    case.attention, case.attention_citation, case.attention_since = "", "", None
    fields = ["attention", "attention_citation", "attention_since"]
    words = {"name": decision.decided_by_name, "section": decision.citation}
    if not accept:
        case.save(update_fields=fields)
        Event.record(
            "dangerous_dogs.case.late_contest_refused",
            case,
            actor=actor,
            at=now,
            summary=_("Late request for a hearing refused by %(name)s (%(section)s)") % words,
            data={"decision": decision.pk},
        )
        return
    case.apply(
        "contest",
        actor=actor,
        at=now,
        summary=_("Late request for a hearing accepted by %(name)s (%(section)s)") % words,
        citation=decision.citation,
        data={"decision": decision.pk, "late": True},
        fields=fields,
    )
