"""The notice stage of Glencoe's Subd. 15 proceeding (Appendix B3, top half).

- Investigation (DD-02, DD-26, DD-27; ``investigation``): what the officer found opens
  the case. A law-enforcement dog (15(M)) has no case; an exemption found closes the
  case as EXEMPT and no notice can follow.
- Notice of intent (C24, DD-03): issued through ``document_issue``; every service is a
  ``ServiceRecord``. No clock runs until the owner's receipt is recorded; the first
  receipt stores ``contest_deadline`` with its section (DD-04).
- Contest (C25, DD-04): a written request delivered to the officer or the police; in
  time it becomes CONTESTED, late it goes to a person (``late_contest_decide``).
- Default (DD-09): the sweep ``dangerous_dogs.contest_default`` (sweeps.py); then the
  officer issues the declaration (C29) and the designation comes into force
  (``declaration.declare``). A default has no Council appeal (15(H) covers the panel).

The documents' contexts are built in ``documents``.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from dangerous_dogs.models import CaseStatus, DeclaredBy, DesignationCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from notices.models import Decision, DecisionOutcome, ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import get_rule, rule_citation

from .common import SERIES, deadline, procedure_or_refuse
from .declaration import declare
from .documents import declaration_context, notice_context
from .investigation import Investigation, check_dog, check_investigation, required

NOTICE_KIND = "dd_notice_of_intent"
NOTICE_TEMPLATE = "dangerous_dogs/notice_of_intent.html"
DECLARATION_KIND = "dd_declaration"
DECLARATION_TEMPLATE = "dangerous_dogs/declaration.html"
LATE_CONTEST_KIND = "dd_late_contest"

# Where the written request for a hearing may be delivered (Subd. 15(B), C25).
RECIPIENTS = {
    "officer": _lazy("The animal control officer"),
    "police": _lazy("The police department"),
}


# --- Investigation (DD-02, DD-26, DD-27) ----------------------------------------------


@refusing()
@transaction.atomic
def case_open(
    *,
    animal: Animal,
    actor,
    investigation: Investigation | None = None,
    now: datetime | None = None,
    **fields,
) -> DesignationCase:
    """Record the investigation of an incident and open the case (DD-02, DD-03, DD-26).

    ``investigation``: what the officer found (or its fields as keywords, as the demo
    passes them). With an exemption found the case is closed at once as EXEMPT."""
    found = investigation or Investigation(**fields)
    now = now or timezone.now()
    jurisdiction = animal.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    procedure_or_refuse(jurisdiction, on=timezone.localdate(now))
    check_dog(animal, jurisdiction)
    prior = check_investigation(found, animal=animal, now=now)
    case = DesignationCase.objects.create(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, SERIES, timezone.localdate(now).year, "DD"),
        animal=animal,
        owner=animal.owner,
        status=CaseStatus.DETERMINED,
        status_changed_at=now,
        prior_notice_on=prior,
        officer=actor,
        **found.case_fields(),
    )
    _record_opened(case, found, actor=actor, now=now)
    if found.exemptions:
        _close_exempt(case, found, actor=actor, now=now)
    return case


def _record_opened(case: DesignationCase, found: Investigation, *, actor, now) -> None:
    Event.record(
        "dangerous_dogs.case.opened",
        case,
        actor=actor,
        at=now,
        summary=_("Investigated: %(criterion)s; %(designation)s intended (%(section)s)")
        % {
            "criterion": found.criterion.label,
            "designation": found.designation.label.lower(),
            "section": rule_citation(case.jurisdiction, "DD-02"),
        },
        data={
            "criterion": found.criterion,
            "designation": found.designation,
            "prior_notice_on": str(case.prior_notice_on or ""),
            "exemptions": found.exemptions,
        },
    )


def _close_exempt(case: DesignationCase, found: Investigation, *, actor, now) -> None:
    """An exemption applies (Subd. 15(L)): the case closes with it, no notice follows."""
    names = "; ".join(
        str(DesignationCase._meta.get_field(name).verbose_name) for name in found.exemptions
    )
    note = _("An exemption applies (%(section)s): %(found)s.") % {
        "section": rule_citation(case.jurisdiction, "DD-26"),
        "found": names,
    }
    case.closed_on, case.closing_note = timezone.localdate(now), note[:300]
    case.apply(
        "find_exempt",
        actor=actor,
        at=now,
        summary=note,
        data={"exemptions": found.exemptions},
        fields=["closed_on", "closing_note"],
    )


# --- Notice of intent (C24, DD-03) ----------------------------------------------------


def _check_notice_possible(case: DesignationCase) -> None:
    if case.status == CaseStatus.EXEMPT:
        raise Refused.because(
            _("Notice of intent"),
            _("No notice of intent can be issued: %(why)s") % {"why": case.closing_note},
            rule_citation(case.jurisdiction, "DD-26"),
        )
    case.ensure("issue_notice")


@refusing()
@transaction.atomic
def notice_issue(*, case: DesignationCase, actor, now: datetime | None = None):
    """Issue the notice of intent (C24); the case waits for its service and receipt."""
    from notices.services import document_issue

    now = now or timezone.now()
    today = timezone.localdate(now)
    j = case.jurisdiction
    refuse_unless_serves(actor, j)
    procedure_or_refuse(j, on=today)
    _check_notice_possible(case)
    check_dog(case.animal, j)
    case.notice = document_issue(
        kind=NOTICE_KIND,
        template=NOTICE_TEMPLATE,
        context=notice_context(case, on=today),
        jurisdiction=j,
        actor=actor,
        title=_("Notice of intent to declare a %(designation)s")
        % {"designation": case.get_designation_display().lower()},
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )
    section = rule_citation(j, "DD-03")
    case.apply(
        "issue_notice",
        actor=actor,
        at=now,
        summary=_("Notice of intent issued (%(section)s); no clock runs until receipt")
        % {"section": section},
        citation=section,
        data={"document": case.notice.pk},
        fields=["notice"],
    )
    return case.notice


def service_records(case: DesignationCase):
    return ServiceRecord.objects.filter(
        subject_type=ContentType.objects.get_for_model(DesignationCase), subject_id=case.pk
    ).order_by("served_at", "pk")


@dataclass(frozen=True)
class NoticeService:
    """One service of the notice of intent, or an attempt that did not reach the owner
    (no ``received_on``): the form's cleaned data."""

    method: str
    served_at: datetime
    served_to: str = ""
    served_by_name: str = ""
    received_on: date | None = None
    posted_where: str = ""
    result: str = ""


@refusing()
@transaction.atomic
def notice_served(
    *,
    case: DesignationCase,
    actor,
    service: NoticeService | None = None,
    now: datetime | None = None,
    **fields,
) -> ServiceRecord:
    """Record one service of the notice of intent (DD-03) (``service``, or its fields as
    keywords). An attempt that did not reach the owner starts nothing; the first
    receipt starts the contest period (DD-04)."""
    service = service or NoticeService(**fields)
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    if not case.notice_out:
        raise case.not_now(_("recording service"))
    _check_method(case, service.method, timezone.localdate(now))
    _check_service(case, service, now)
    record = _service_record(case, service, actor)
    if service.received_on is None:
        Event.record(
            "dangerous_dogs.case.notice_service",
            case,
            actor=actor,
            at=now,
            summary=_("Notice of intent: %(method)s, receipt not recorded")
            % {"method": record.get_method_display()},
            data={"service_record": record.pk, "method": service.method},
        )
    else:
        _notice_received(case, record, actor=actor, now=now)
    return record


def _check_method(case: DesignationCase, method: str, today: date) -> None:
    methods = get_rule(case.jurisdiction, "dd_service_methods", on=today)
    if method not in methods.value:
        raise Refused.because(
            _("How"),
            _("%(city)s serves a notice of intent by: %(methods)s.")
            % {
                "city": case.jurisdiction.short_name,
                "methods": ", ".join(str(ServiceMethod(m).label).lower() for m in methods.value),
            },
            methods.citation,
            field="method",
        )


def _check_service(case: DesignationCase, service: NoticeService, now: datetime) -> None:
    if service.served_at > now:  # a time later today is in the future too
        raise Refused.because(_("When"), _("The date cannot be in the future."), field="served_at")
    # A form gives the minute: served in the minute of issue is not "before" it.
    if case.notice and service.served_at < case.notice.issued_at.replace(second=0, microsecond=0):
        raise Refused.because(
            _("When"),
            _("The notice was issued later than that (%(at)s).")
            % {"at": date_format(timezone.localtime(case.notice.issued_at), "DATETIME_FORMAT")},
            field="served_at",
        )
    if service.method == ServiceMethod.POSTED and not service.posted_where.strip():
        raise Refused.because(
            _("Posted at"), _("Say where the notice was posted."), field="posted_where"
        )
    if service.received_on is not None:
        _check_receipt(case, service, timezone.localdate(now))


def _check_receipt(case: DesignationCase, service: NoticeService, today: date) -> None:
    label = _("Owner received it on")
    refuse_if_future(service.received_on, label, field="received_on", today=today)
    if service.received_on < timezone.localdate(service.served_at):
        raise Refused.because(
            label, _("The owner cannot have received it before it was served."), field="received_on"
        )
    if case.notice_received_on is not None:
        raise Refused.because(
            label,
            _("The owner's receipt was recorded already (%(date)s).")
            % {"date": date_format(case.notice_received_on)},
            field="received_on",
        )


def _service_record(case: DesignationCase, service: NoticeService, actor) -> ServiceRecord:
    received_on = service.received_on
    if service.result.strip():
        result = service.result.strip()
    elif received_on:
        result = _("Received on %(date)s") % {"date": date_format(received_on)}
    else:
        result = _("Receipt not recorded")
    return ServiceRecord.objects.create(
        document=case.notice,
        jurisdiction=case.jurisdiction,
        subject=case,
        method=service.method,
        served_to=(service.served_to.strip() or f"{case.owner.name}, {case.owner.address}")[:200],
        served_by_name=(service.served_by_name.strip() or actor.get_full_name() or actor.username)[
            :120
        ],
        served_at=service.served_at,
        succeeded=received_on is not None,
        result=result[:300],
        received_on=received_on,
        posted_where=service.posted_where.strip()[:200],
        recorded_by=actor,
    )


def _notice_received(case: DesignationCase, record: ServiceRecord, *, actor, now) -> None:
    """The owner's receipt: the contest period starts (DD-04), stored with its section."""
    received_on = record.received_on
    case.notice_received_on = received_on
    case.contest_deadline, case.contest_citation = deadline(
        case.jurisdiction, "dd_contest_days", received_on
    )
    case.apply(
        "serve_notice",
        actor=actor,
        at=now,
        summary=_(
            "Owner received the notice of intent on %(date)s; contest by %(due)s (%(section)s)"
        )
        % {
            "date": date_format(received_on),
            "due": date_format(case.contest_deadline),
            "section": case.contest_citation,
        },
        citation=case.contest_citation,
        data={
            "service_record": record.pk,
            "received_on": str(received_on),
            "contest_deadline": str(case.contest_deadline),
        },
        fields=["notice_received_on", "contest_deadline", "contest_citation"],
    )


# --- Contest (C25, DD-04) --------------------------------------------------------------


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
    case.attention, case.attention_citation, case.attention_since = "", "", None
    fields = ["attention", "attention_citation", "attention_since"]
    words = {"name": decision.decided_by_name, "section": section}
    if accept:
        case.apply(
            "contest",
            actor=actor,
            at=now,
            summary=_("Late request for a hearing accepted by %(name)s (%(section)s)") % words,
            citation=section,
            data={"decision": decision.pk, "late": True},
            fields=fields,
        )
    else:
        case.save(update_fields=fields)
        Event.record(
            "dangerous_dogs.case.late_contest_refused",
            case,
            actor=actor,
            at=now,
            summary=_("Late request for a hearing refused by %(name)s (%(section)s)") % words,
            data={"decision": decision.pk},
        )
    return decision


# --- Default and declaration (C29, DD-09, DD-10, DD-30) --------------------------------


def mark_defaulted(case: DesignationCase, *, on: date, at: datetime) -> None:
    """The contest period ran out with no request (called by the sweep, once)."""
    case.defaulted_on = on
    section = rule_citation(case.jurisdiction, "DD-09")
    case.apply(
        "default",
        actor=None,
        at=at,
        summary=_("Not contested by %(due)s: default (%(section)s); declaration due")
        % {"due": date_format(case.contest_deadline), "section": section},
        citation=section,
        data={"contest_deadline": str(case.contest_deadline), "defaulted_on": str(on)},
        fields=["defaulted_on"],
    )


@refusing()
@transaction.atomic
def declaration_issue(*, case: DesignationCase, actor, now: datetime | None = None):
    """The officer issues the declaration (C29) of a defaulted case; it comes into force."""
    from notices.services import document_issue

    now = now or timezone.now()
    today = timezone.localdate(now)
    j = case.jurisdiction
    refuse_unless_serves(actor, j)
    procedure_or_refuse(j, on=today)
    case.ensure("declare")
    section = rule_citation(j, "DD-09")
    if late_contest_pending(case):
        raise Refused.because(
            _("Declaration"),
            _("A late request for a hearing awaits a person's decision: decide it first."),
            case.contest_citation or section,
        )
    document = document_issue(
        kind=DECLARATION_KIND,
        template=DECLARATION_TEMPLATE,
        context=declaration_context(case, on=today),
        jurisdiction=j,
        actor=actor,
        title=_("Declaration of %(designation)s")
        % {"designation": case.get_designation_display().lower()},
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )
    declare(
        case,
        designation=case.designation,
        by=DeclaredBy.DEFAULT,
        on=today,
        document=document,
        actor=actor,
        at=now,
        citation=section,
    )
    return document
