"""The notice stage of Glencoe's Subd. 15 proceeding (Appendix B3, top half).

- Investigation (DD-02, DD-26, DD-27): the incident, the Subd. 1 definition met, each
  15(L) exemption with why it does or does not apply. A law-enforcement dog (15(M)) has
  no case; an exemption found closes the case as EXEMPT and no notice can follow.
  An earlier notice that the dog is potentially dangerous is stored on the new case
  (``prior_notice_on``): an attack after it meets prong (3) of "Dangerous Dog".
- Notice of intent (C24, DD-03): issued through ``document_issue``; every service is a
  ``ServiceRecord``. No clock runs until the owner's receipt is recorded; the first
  receipt stores ``contest_deadline`` with its section (DD-04).
- Contest (C25, DD-04): a written request delivered to the officer or the police; in
  time it becomes CONTESTED, late it goes to a person (``late_contest_decide``).
- Default (DD-09): the sweep ``dangerous_dogs.contest_default`` (sweeps.py); then the
  officer issues the declaration (C29) and the designation comes into force
  (``declaration.declare``). A default has no Council appeal (15(H) covers the panel).
"""

from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from dangerous_dogs.models import (
    DANGEROUS_CRITERIA,
    POTENTIALLY_DANGEROUS_CRITERIA,
    CaseStatus,
    Criterion,
    DeclaredBy,
    Designation,
    DesignationCase,
    IncidentKind,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from notices.models import Decision, DecisionOutcome, ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleNotSet, get_optional, get_rule, get_rules, rule_layers
from ordinance.rules import rule_citation as section_of

from .common import (
    SERIES,
    deadline,
    procedure_or_refuse,
)
from .declaration import declare

NOTICE_KIND = "dd_notice_of_intent"
NOTICE_TEMPLATE = "dangerous_dogs/notice_of_intent.html"
DECLARATION_KIND = "dd_declaration"
DECLARATION_TEMPLATE = "dangerous_dogs/declaration.html"
LATE_CONTEST_KIND = "dd_late_contest"

CRITERIA = {
    Designation.DANGEROUS: DANGEROUS_CRITERIA,
    Designation.POTENTIALLY_DANGEROUS: POTENTIALLY_DANGEROUS_CRITERIA,
}
# A notice that the dog is potentially dangerous stands unless the case ended without it.
NOT_A_NOTICE = (
    CaseStatus.EXEMPT,
    CaseStatus.WITHDRAWN,
    CaseStatus.DISMISSED,
    CaseStatus.RESCINDED,
)
# Where the written request for a hearing may be delivered (Subd. 15(B), C25).
RECIPIENTS = {
    "officer": _lazy("The animal control officer"),
    "police": _lazy("The police department"),
}
EXEMPTIONS = ("exempt_trespass", "exempt_provocation", "exempt_crime")


def citation(jurisdiction, rule_id: str) -> str:
    return section_of(jurisdiction, rule_id)


# --- Investigation (DD-02, DD-26, DD-27) ----------------------------------------------


def prior_pdd_notice(animal: Animal, *, exclude_pk=None) -> date | None:
    """The first date the owner was sent notice that the dog is potentially dangerous:
    the receipt of a potentially-dangerous notice of intent or a PDD declaration on an
    earlier case that still stands (DD-02 prong 3)."""
    cases = DesignationCase.objects.filter(animal=animal).exclude(status__in=NOT_A_NOTICE)
    if exclude_pk:
        cases = cases.exclude(pk=exclude_pk)
    dates = []
    for received, declared_on, designation, declared in cases.values_list(
        "notice_received_on", "declared_on", "designation", "declared_designation"
    ):
        if designation == Designation.POTENTIALLY_DANGEROUS and received:
            dates.append(received)
        if declared == Designation.POTENTIALLY_DANGEROUS and declared_on:
            dates.append(declared_on)
    return min(dates) if dates else None


def check_dog(animal: Animal, jurisdiction) -> None:
    if animal.is_law_enforcement:
        raise Refused.because(
            _("Law-enforcement dog"),
            _(
                "%(name)s is a trained dog used by law enforcement for police work: the "
                "dangerous-dog provisions do not apply to it."
            )
            % {"name": animal.name},
            citation(jurisdiction, "DD-27"),
        )
    if animal.species != "dog":
        raise Refused.because(
            _("Animal"),
            _("Only a dog can be declared potentially dangerous or dangerous."),
            citation(jurisdiction, "DD-02"),
        )


def _required(values: dict, jurisdiction) -> None:
    missing = [
        Refused.because(label, _("This is required."), field=field).checks[0]
        for field, (label, value) in values.items()
        if not (value or "").strip()
    ]
    if missing:
        raise Refused(missing)


@refusing()
@transaction.atomic
def case_open(
    *,
    animal: Animal,
    actor,
    incident_kind: str,
    occurred_at: datetime,
    location: str,
    off_owner_property: bool,
    victim: str,
    criterion: str,
    designation: str,
    exemption_findings: str,
    investigated_by_name: str,
    investigated_on: date,
    injuries: str = "",
    witnesses: str = "",
    evidence: str = "",
    evidence_file=None,
    exempt_trespass: bool = False,
    exempt_provocation: bool = False,
    exempt_crime: bool = False,
    now: datetime | None = None,
) -> DesignationCase:
    """Record the investigation of an incident and open the case (DD-02, DD-03, DD-26).

    With an exemption found the case is closed at once as EXEMPT, with the reason."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    jurisdiction = animal.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    procedure_or_refuse(jurisdiction, on=today)
    check_dog(animal, jurisdiction)
    definition = citation(jurisdiction, "DD-02")
    exemptions = citation(jurisdiction, "DD-26")
    _required(
        {
            "location": (_("Where it happened"), location),
            "victim": (_("Person or animal harmed or threatened"), victim),
            "exemption_findings": (
                _("Why each exemption does or does not apply"),
                exemption_findings,
            ),
            "investigated_by_name": (_("Investigated by"), investigated_by_name),
        },
        jurisdiction,
    )
    if incident_kind not in IncidentKind.values:
        raise Refused.because(_("What happened"), _("Choose what happened."), field="incident_kind")
    if criterion not in Criterion.values:
        raise Refused.because(
            _("Definition met"), _("Choose the definition met."), definition, field="criterion"
        )
    if designation not in Designation.values:
        raise Refused.because(
            _("Designation intended"), _("Choose the designation."), field="designation"
        )
    if criterion not in CRITERIA[designation]:
        raise Refused.because(
            _("Designation intended"),
            _("“%(criterion)s” is the definition of a %(designation)s.")
            % {
                "criterion": Criterion(criterion).label,
                "designation": next(
                    Designation(d).label.lower() for d, c in CRITERIA.items() if criterion in c
                ),
            },
            definition,
            field="designation",
        )
    occurred_on = timezone.localdate(occurred_at)
    if occurred_at > now:
        raise Refused.because(
            _("When it happened"), _("The date cannot be in the future."), field="occurred_at"
        )
    refuse_if_future(
        investigated_on, _("Investigation completed on"), field="investigated_on", today=today
    )
    if investigated_on < occurred_on:
        raise Refused.because(
            _("Investigation completed on"),
            _("The investigation cannot end before the incident (%(date)s).")
            % {"date": date_format(occurred_on)},
            field="investigated_on",
        )
    prior = prior_pdd_notice(animal)
    if criterion == Criterion.AFTER_PDD_NOTICE:
        if prior is None:
            raise Refused.because(
                _("Definition met"),
                _(
                    "No earlier notice that %(name)s is potentially dangerous is on record: "
                    "prong (3) needs one."
                )
                % {"name": animal.name},
                definition,
                field="criterion",
            )
        if occurred_on <= prior:
            raise Refused.because(
                _("Definition met"),
                _(
                    "Prong (3) needs an attack after the owner was sent notice (%(date)s); "
                    "this incident was on %(when)s."
                )
                % {"date": prior, "when": date_format(occurred_on)},
                definition,
                field="criterion",
            )
    case = DesignationCase(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, SERIES, today.year, "DD"),
        animal=animal,
        owner=animal.owner,
        status=CaseStatus.DETERMINED,
        status_changed_at=now,
        incident_kind=incident_kind,
        occurred_at=occurred_at,
        location=location.strip(),
        off_owner_property=off_owner_property,
        victim=victim.strip(),
        injuries=injuries.strip(),
        witnesses=witnesses.strip(),
        evidence=evidence.strip(),
        criterion=criterion,
        designation=designation,
        prior_notice_on=prior,
        exempt_trespass=exempt_trespass,
        exempt_provocation=exempt_provocation,
        exempt_crime=exempt_crime,
        exemption_findings=exemption_findings.strip(),
        investigated_by_name=investigated_by_name.strip(),
        investigated_on=investigated_on,
        officer=actor,
    )
    if evidence_file:
        case.evidence_file = evidence_file
    case.save()
    Event.record(
        "dangerous_dogs.case.opened",
        case,
        actor=actor,
        at=now,
        summary=_("Investigated: %(criterion)s; %(designation)s intended (%(section)s)")
        % {
            "criterion": Criterion(criterion).label,
            "designation": Designation(designation).label.lower(),
            "section": definition,
        },
        data={
            "criterion": criterion,
            "designation": designation,
            "prior_notice_on": str(prior or ""),
            "exemptions": [f for f in EXEMPTIONS if getattr(case, f)],
        },
    )
    if case.exemption_applies:
        found = "; ".join(
            str(DesignationCase._meta.get_field(f).verbose_name)
            for f in EXEMPTIONS
            if getattr(case, f)
        )
        note = _("An exemption applies (%(section)s): %(found)s.") % {
            "section": exemptions,
            "found": found,
        }
        case.closed_on, case.closing_note = today, note[:300]
        case.apply(
            "find_exempt",
            actor=actor,
            at=now,
            summary=note,
            citation=exemptions,
            data={"exemptions": [f for f in EXEMPTIONS if getattr(case, f)]},
            fields=["closed_on", "closing_note"],
        )
    return case


# --- Notice of intent (C24, DD-03) ----------------------------------------------------


def incident_facts(case: DesignationCase) -> str:
    """The facts of the basis, as the notice and the declaration print them."""
    when = timezone.localtime(case.occurred_at)
    facts = _("On %(date)s at %(time)s, at %(where)s%(off)s: %(what)s; %(victim)s.") % {
        "date": date_format(when),
        "time": time_format(when, "g:i a"),
        "where": case.location,
        "off": _(" (off the owner's property)") if case.off_owner_property else "",
        "what": case.get_incident_kind_display().lower(),
        "victim": case.victim,
    }
    if case.injuries:
        facts += " " + _("Injuries: %(i)s.") % {"i": case.injuries.rstrip(".")}
    return facts


def _basis(case) -> dict:
    return {
        "criterion": str(case.get_criterion_display()),
        "facts": incident_facts(case),
        "section": citation(case.jurisdiction, "DD-02"),
        "prior_notice_on": case.prior_notice_on,
    }


def _exemption_rows(case) -> list[dict]:
    return [
        {
            "label": str(DesignationCase._meta.get_field(f).verbose_name),
            "applies": getattr(case, f),
        }
        for f in EXEMPTIONS
    ]


def _owner(case) -> dict:
    return {"name": case.owner.name, "address": case.owner.address}


def _dog(case) -> dict:
    a = case.animal
    return {"name": a.name, "breed": a.breed, "color": a.color, "sex": a.get_sex_display()}


def notice_context(case: DesignationCase, *, on: date) -> dict:
    j = case.jurisdiction
    rules = get_rules(j, ["dd_contest_days", "dd_service_methods"], on=on)
    contest, methods = rules["dd_contest_days"], rules["dd_service_methods"]
    return {
        "case": {"number": case.number},
        "owner": _owner(case),
        "dog": _dog(case),
        "designation": str(case.get_designation_display()),
        "basis": _basis(case),
        "exemptions": _exemption_rows(case),
        "exemption_findings": case.exemption_findings,
        "exemption_section": citation(j, "DD-26"),
        "notice_section": citation(j, "DD-03"),
        "contest": {"days": contest.display(), "section": contest.citation},
        "default_section": citation(j, "DD-09"),
        "methods": [str(ServiceMethod(m).label) for m in methods.value],
        "methods_section": methods.citation,
    }


def _check_notice_possible(case: DesignationCase) -> None:
    if case.status == CaseStatus.EXEMPT:
        raise Refused.because(
            _("Notice of intent"),
            _("No notice of intent can be issued: %(why)s") % {"why": case.closing_note},
            citation(case.jurisdiction, "DD-26"),
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
    section = citation(j, "DD-03")
    document = document_issue(
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
    case.notice = document
    case.apply(
        "issue_notice",
        actor=actor,
        at=now,
        summary=_("Notice of intent issued (%(section)s); no clock runs until receipt")
        % {"section": section},
        citation=section,
        data={"document": document.pk},
        fields=["notice"],
    )
    return document


def service_records(case: DesignationCase):
    return ServiceRecord.objects.filter(
        subject_type=ContentType.objects.get_for_model(DesignationCase), subject_id=case.pk
    ).order_by("served_at", "pk")


@refusing()
@transaction.atomic
def notice_served(
    *,
    case: DesignationCase,
    actor,
    method: str,
    served_at: datetime,
    served_to: str = "",
    served_by_name: str = "",
    received_on: date | None = None,
    posted_where: str = "",
    result: str = "",
    now: datetime | None = None,
) -> ServiceRecord:
    """Record one service of the notice of intent (DD-03). An attempt that did not reach
    the owner has no ``received_on`` and starts nothing; the first receipt starts the
    contest period (DD-04)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    j = case.jurisdiction
    refuse_unless_serves(actor, j)
    if not case.notice_out:
        raise case.not_now(_("recording service"))
    methods = get_rule(j, "dd_service_methods", on=today)
    if method not in methods.value:
        raise Refused.because(
            _("How"),
            _("%(city)s serves a notice of intent by: %(methods)s.")
            % {
                "city": j.short_name,
                "methods": ", ".join(str(ServiceMethod(m).label).lower() for m in methods.value),
            },
            methods.citation,
            field="method",
        )
    if served_at > now:
        raise Refused.because(_("When"), _("The date cannot be in the future."), field="served_at")
    # A form gives the minute: served in the minute of issue is not "before" it.
    if case.notice and served_at < case.notice.issued_at.replace(second=0, microsecond=0):
        raise Refused.because(
            _("When"),
            _("The notice was issued later than that (%(at)s).")
            % {"at": date_format(timezone.localtime(case.notice.issued_at), "DATETIME_FORMAT")},
            field="served_at",
        )
    if method == ServiceMethod.POSTED and not posted_where.strip():
        raise Refused.because(
            _("Posted at"), _("Say where the notice was posted."), field="posted_where"
        )
    if received_on is not None:
        refuse_if_future(received_on, _("Owner received it on"), field="received_on", today=today)
        if received_on < timezone.localdate(served_at):
            raise Refused.because(
                _("Owner received it on"),
                _("The owner cannot have received it before it was served."),
                field="received_on",
            )
        if case.notice_received_on is not None:
            raise Refused.because(
                _("Owner received it on"),
                _("The owner's receipt was recorded already (%(date)s).")
                % {"date": date_format(case.notice_received_on)},
                field="received_on",
            )
    record = ServiceRecord.objects.create(
        document=case.notice,
        jurisdiction=j,
        subject=case,
        method=method,
        served_to=(served_to.strip() or f"{case.owner.name}, {case.owner.address}")[:200],
        served_by_name=(served_by_name.strip() or actor.get_full_name() or actor.username)[:120],
        served_at=served_at,
        succeeded=received_on is not None,
        result=(
            result.strip()
            or (
                _("Received on %(date)s") % {"date": date_format(received_on)}
                if received_on
                else _("Receipt not recorded")
            )
        )[:300],
        received_on=received_on,
        posted_where=posted_where.strip()[:200],
        recorded_by=actor,
    )
    if received_on is None:
        Event.record(
            "dangerous_dogs.case.notice_service",
            case,
            actor=actor,
            at=now,
            summary=_("Notice of intent: %(method)s, receipt not recorded")
            % {"method": record.get_method_display()},
            data={"service_record": record.pk, "method": method},
        )
        return record
    case.notice_received_on = received_on
    case.contest_deadline, case.contest_citation = deadline(j, "dd_contest_days", received_on)
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
    return record


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
    today = timezone.localdate(now)
    j = case.jurisdiction
    refuse_unless_serves(actor, j)
    section = case.contest_citation or citation(j, "DD-04")
    if case.status == CaseStatus.NOTICE_ISSUED:
        raise Refused.because(
            _("Request for a hearing"),
            _("Record the owner's receipt of the notice of intent first: the period runs from it."),
            section,
        )
    case.ensure("contest")
    if case.contest_received_on is not None:
        raise Refused.because(
            _("Request for a hearing"),
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
    refuse_if_future(received_on, _("Received on"), field="received_on", today=today)
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
    if received_on <= case.contest_deadline:
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
    case.contest_late = True
    case.save(update_fields=[*fields, "contest_late"])
    Event.record(
        "dangerous_dogs.case.contest_late",
        case,
        actor=actor,
        at=now,
        summary=_("Written request for a hearing received on %(date)s, after %(due)s")
        % {"date": date_format(received_on), "due": date_format(case.contest_deadline)},
        data=data,
    )
    case.flag(
        _("A late request for a hearing: a person decides (received %(date)s, due by %(due)s).")
        % {"date": date_format(received_on), "due": date_format(case.contest_deadline)},
        section,
        on=today,
        actor=actor,
        at=now,
    )
    return case


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
    section = case.contest_citation or citation(j, "DD-04")
    if not case.may("contest"):
        raise case.not_now(_("deciding a late request"))
    if not late_contest_pending(case):
        raise Refused.because(
            _("Late request"), _("No late request for a hearing awaits a decision."), section
        )
    _required(
        {
            "decided_by_name": (_("Decided by"), decided_by_name),
            "capacity": (_("In the capacity of"), capacity),
            "reasons": (_("Reasons"), reasons),
        },
        j,
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
    section = citation(case.jurisdiction, "DD-09")
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


def _money(layers) -> dict:
    governing = layers.governing
    row = {"amount": governing.display(), "section": governing.citation, "why": ""}
    if layers.ordinance is not None and layers.verdict == "superseded":
        row["why"] = governing.why
        row["ordinance"] = {
            "amount": layers.ordinance.display(),
            "section": layers.ordinance.citation,
        }
    return row


def requirements(case: DesignationCase, *, on: date) -> dict:
    """What the declaration tells the owner to do (DD-10; DD-30 for a PDD)."""
    j = case.jurisdiction
    if case.designation == Designation.POTENTIALLY_DANGEROUS:
        section = citation(j, "DD-30")
        try:
            rule = get_optional(j, "pdd_requirements", on=on)
        except RuleNotSet:
            rule = None
        return {
            "dangerous": False,
            "pdd": rule.value if rule is not None else "",
            "section": rule.citation if rule is not None else section,
        }
    days = get_rule(j, "dd_compliance_days", on=on)
    fee_cap = get_rule(j, "dd_annual_fee_cap", on=on)
    chip = get_rule(j, "dd_microchip_statute", on=on)
    return {
        "dangerous": True,
        "days": days.display(),
        "section": days.citation,
        "bond": _money(rule_layers(j, "dd_min_bond", on=on)),
        "insurance": _money(rule_layers(j, "dd_min_insurance", on=on)),
        "fee_cap": {"amount": fee_cap.display(), "section": fee_cap.citation},
        "microchip": {"statute": chip.value, "section": chip.citation},
        "enclosure_section": citation(j, "DD-10"),
    }


def declaration_context(case: DesignationCase, *, on: date) -> dict:
    j = case.jurisdiction
    return {
        "case": {
            "number": case.number,
            "notice_received_on": case.notice_received_on,
            "contest_deadline": case.contest_deadline,
            "contest_section": case.contest_citation,
            "defaulted_on": case.defaulted_on,
        },
        "owner": _owner(case),
        "dog": _dog(case),
        "designation": str(case.get_designation_display()),
        "basis": _basis(case),
        "declared_on": on,
        "default_section": citation(j, "DD-09"),
        "requirements": requirements(case, on=on),
    }


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
    section = citation(j, "DD-09")
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
