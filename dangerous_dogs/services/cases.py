"""The notice stage of Glencoe's Subd. 15 proceeding (Appendix B3, top half).

- Investigation (DD-02, DD-26, DD-27; ``investigation``): what the officer found opens
  the case. A law-enforcement dog (15(M)) has no case; an exemption found closes the
  case as EXEMPT and no notice can follow.
- Notice of intent (C24, DD-03): issued through ``document_issue``; every service is a
  ``ServiceRecord``. No clock runs until the owner's receipt is recorded; the first
  receipt stores ``contest_deadline`` with its section (DD-04).
- Contest (C25, DD-04; ``contest``): a written request for a hearing; in time the case
  is CONTESTED, late a person decides.
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

from dangerous_dogs.models import CaseStatus, DeclaredBy, DesignationCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from notices.models import ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_in_force

from .common import SERIES, deadline, procedure_or_refuse
from .contest import late_contest_pending
from .declaration import declare
from .documents import declaration_context, notice_context
from .investigation import Investigation, check_dog, check_investigation

NOTICE_KIND = "dd_notice_of_intent"
NOTICE_TEMPLATE = "dangerous_dogs/notice_of_intent.html"
DECLARATION_KIND = "dd_declaration"
DECLARATION_TEMPLATE = "dangerous_dogs/declaration.html"


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
    methods = rule_in_force(case.jurisdiction, "dd_service_methods", on=today)
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
    refuse_if_future(service.served_at, _("When"), field="served_at", now=now)
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
