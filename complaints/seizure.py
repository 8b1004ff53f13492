"""The barking-dog seizure: the seven conditions, the contact attempts, the written
notice, and the dog to the pound (Glencoe 701 Subd. 5; rules.md RES-07, RES-08, REC-05).

``seizure_rule`` says whether the city's ordinance has such a seizure at all (North
Branch's does not: the page says so and offers nothing). ``prior_barking_complaints``
is condition 3, read from the complaint history, never typed. ``seizure_record`` refuses,
each missing condition next to its field with its section, until all seven are recorded;
then it opens the impound case through ``record_outcome`` (the complaint's impoundment
path, ground ``barking_seizure``, the normal hold) and issues the notice left at the
premises as a PDF.
"""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import Pound
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import IssuedDocument
from notices.services import document_issue
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation, rule_in_force

from .models import Complaint, Kind, Outcome
from .readings import READERS, rulebook
from .seizure_checklist import SeizureConditions, SeizureFacts, checklist_refusals
from .seizure_models import (
    BarkingSeizure,
    ContactAttempt,
    ContactMethod,
    ContactResult,
    EntryMeans,
)
from .services import _check_open, record_outcome

# The impound ground a seized barking dog is taken in on (RES-08; the city's profile
# lists it among its grounds with its section).
IMPOUND_GROUND = "barking_seizure"
NOTICE_KIND = "barking-seizure-notice"
NOTICE_TEMPLATE = "complaints/barking_seizure_notice.html"


@dataclass(frozen=True)
class SeizureRule:
    """The city's seizure of a barking dog: its section and the earlier complaints it
    needs on a prior date (condition 3)."""

    citation: str
    prior_min: int
    prior_citation: str
    notice_citation: str
    disposition_citation: str


def seizure_rule(jurisdiction: Jurisdiction, *, on) -> SeizureRule | None:
    """None where the city's ordinance has no seizure of a barking dog (North Branch)."""
    prior = rule_in_force(
        jurisdiction, "barking_seizure_prior_complaints_min", on=on, optional=True
    )
    if prior is None:
        return None
    return SeizureRule(
        citation=rule_citation(jurisdiction, "RES-07") or prior.citation,
        prior_min=prior.value,
        prior_citation=prior.citation,
        notice_citation=rule_citation(jurisdiction, "REC-05") or prior.citation,
        disposition_citation=rule_citation(jurisdiction, "RES-08") or prior.citation,
    )


def no_rule_message(jurisdiction) -> str:
    return _(
        "%(city)s's ordinance has no seizure of a barking dog; nothing here applies "
        "(rules.md RES-07)."
    ) % {"city": jurisdiction}


def prior_barking_complaints(complaint: Complaint) -> QuerySet:
    """Condition 3: barking complaints at this address in this city that happened on a
    date (local) before this complaint's, newest first."""
    day = timezone.localdate(complaint.occurred_at)
    start = timezone.make_aware(datetime.combine(day, datetime.min.time()))
    return (
        Complaint.objects.filter(
            jurisdiction_id=complaint.jurisdiction_id,
            address_key=complaint.address_key,
            kind=Kind.BARKING,
            occurred_at__lt=start,
        )
        .exclude(pk=complaint.pk)
        .order_by("-occurred_at", "-pk")
    )


def _check_applies(complaint, rule):
    if rule is None:
        raise Refused.because(_("Seizure"), no_rule_message(complaint.jurisdiction))
    if complaint.kind != Kind.BARKING:
        raise Refused.because(
            _("Seizure"),
            _("Only a barking complaint can lead to the seizure of a barking dog."),
            rule.citation,
        )


# --- Condition 4: the contact attempts -------------------------------------------------


@refusing()
@transaction.atomic
def contact_attempt_record(
    *,
    complaint: Complaint,
    actor,
    attempted_at: datetime,
    method: str,
    contacted: str,
    result: str,
    now: datetime | None = None,
) -> ContactAttempt:
    """Log one attempt to reach the dog's owner or the property owner (RES-07 cond. 4)."""
    now = now or timezone.now()
    _check_open(complaint, actor)
    rule = seizure_rule(complaint.jurisdiction, on=timezone.localdate(now))
    _check_applies(complaint, rule)
    refuse_if_future(
        attempted_at,
        _("Attempted at"),
        message=_("The attempt cannot be in the future."),
        field="attempted_at",
        now=now,
    )
    if method not in ContactMethod.values:
        raise Refused.because(_("Means of contact"), _("Choose how."), field="method")
    if result not in ContactResult.values:
        raise Refused.because(_("Result"), _("Choose the result."), field="result")
    if not contacted.strip():
        raise Refused.because(
            _("Who was tried"), _("Say who was tried, and how."), field="contacted"
        )
    attempt = ContactAttempt(
        complaint=complaint,
        attempted_at=attempted_at,
        method=method,
        contacted=contacted.strip(),
        result=result,
        recorded_by=actor,
        recorded_at=now,
    )
    attempt._history_user = actor
    attempt.save()
    Event.record(
        "complaints.seizure.contact_attempted",
        complaint,
        actor=actor,
        at=now,
        summary=_("Contact attempt: %(who)s, %(result)s")
        % {"who": attempt.contacted, "result": attempt.get_result_display()},
        data={"attempt": attempt.pk, "method": method, "result": result},
    )
    return attempt


# --- The checklist and the seizure -----------------------------------------------------


def reading_label(complaint) -> str:
    """The system's reading of the recorded barking facts (RES-05), "" if none."""
    try:
        facts = complaint.barking_facts
    except Complaint._meta.get_field("barking_facts").related_model.DoesNotExist:
        return ""
    book = rulebook(complaint.jurisdiction, on=timezone.localdate(complaint.occurred_at))
    return str(READERS["barking_facts"](facts, book).proposal_label)


@refusing()
@transaction.atomic
def seizure_record(
    *, complaint: Complaint, actor, pound: Pound | None, now: datetime | None = None, **answers
) -> BarkingSeizure:
    """Seize a barking dog once all seven conditions are recorded (RES-07; ``answers``:
    the officer's checklist, ``SeizureConditions``), take it to the pound on ground
    ``barking_seizure`` with the normal hold (RES-08), and issue the written notice left
    at the premises (REC-05)."""
    now = now or timezone.now()
    answers = SeizureConditions(**answers)
    refuse_unless_serves(actor, complaint.jurisdiction)
    facts = _seizure_facts(complaint, actor, today=timezone.localdate(now))
    missing = checklist_refusals(facts, answers)
    if pound is None:
        missing.append(Check(str(_("Pound")), "fail", str(_("Choose the pound.")), "", "pound"))
    if missing:
        raise Refused(missing)
    complaint = record_outcome(
        complaint=facts.complaint,
        actor=actor,
        outcome=Outcome.IMPOUNDMENT,
        reason=_("Barking dog seized: all seven conditions recorded"),
        now=now,
        pound=pound,
        ground=IMPOUND_GROUND,
    )
    seizure = _seizure_create(complaint, facts, answers, actor=actor, now=now)
    seizure.notice = _issue_notice(seizure, facts.rule, actor=actor, now=now)
    seizure.save(update_fields=["notice"])
    _record_seized(seizure, facts, now=now)
    return seizure


def _seizure_facts(complaint, actor, *, today) -> SeizureFacts:
    """The complaint locked, the city's rule, and what the checklist is checked against;
    refused where no seizure applies or the complaint is closed."""
    complaint = Complaint.objects.select_for_update(of=("self",)).get(pk=complaint.pk)
    rule = seizure_rule(complaint.jurisdiction, on=today)
    _check_applies(complaint, rule)
    _check_open(complaint, actor)
    return SeizureFacts(
        complaint=complaint,
        rule=rule,
        prior=list(prior_barking_complaints(complaint)[:10]),
        attempts=list(complaint.contact_attempts.all()),
        today=today,
    )


def _seizure_create(complaint, facts, answers, *, actor, now) -> BarkingSeizure:
    """The seizure as recorded: each condition with what it rests on."""
    passkey = answers.entry_means == EntryMeans.PASSKEY
    seizure = BarkingSeizure(
        complaint=complaint,
        jurisdiction=complaint.jurisdiction,
        complainant_name=complaint.complainant_name,
        complainant_confirmed_at=now,
        barking_belief_at=now,
        barking_reading=reading_label(complaint),
        prior_complaint=facts.prior[0],
        prior_count=len(facts.prior),
        contact_attempt_count=len(facts.attempts),
        entry_means=answers.entry_means,
        passkey_from=answers.passkey_from.strip() if passkey else "",
        less_intrusive=answers.less_intrusive.strip(),
        notice_place=answers.notice_place.strip(),
        seized_at=now,
        seized_by=actor,
        citation=facts.rule.citation,
        impound_case=complaint.impound_case,
    )
    seizure._history_user = actor
    seizure.save()
    return seizure


def _record_seized(seizure, facts, *, now) -> None:
    case = seizure.impound_case
    Event.record(
        "complaints.seizure.seized",
        seizure.complaint,
        actor=seizure.seized_by,
        at=now,
        summary=_("Barking dog seized; impound case %(n)s, hold ends %(end)s")
        % {"n": case.number, "end": date_format(case.hold_ends_on)},
        data={
            "seizure": seizure.pk,
            "impound_case": seizure.impound_case_id,
            "prior_complaint": facts.prior[0].pk,
            "contact_attempts": [a.pk for a in facts.attempts],
            "notice": seizure.notice_id,
        },
    )


def notice_context(seizure: BarkingSeizure, rule: SeizureRule) -> dict:
    complaint, case = seizure.complaint, seizure.impound_case
    pound = case.pound
    return {
        "seizure": {
            "address": complaint.address,
            "seized_at": seizure.seized_at,
            "officer": seizure.seized_by.get_full_name() or seizure.seized_by.get_username(),
            "notice_place": seizure.notice_place,
            "complaint": complaint.pk,
            "citation": rule.citation,
            "notice_citation": rule.notice_citation,
            "disposition_citation": rule.disposition_citation,
        },
        "animal": {
            "name": complaint.animal.name if complaint.animal else "",
            "description": complaint.animal_description,
        },
        "owner": {"name": complaint.owner.name if complaint.owner else ""},
        "impound": {
            "number": case.number,
            "ground": case.ground_label,
            "ground_citation": case.ground_citation,
            "hold_ends_on": case.hold_ends_on,
            "hold_citation": case.hold_citation,
            "pound": pound.name,
            "pound_address": pound.address,
            "pound_phone": pound.phone,
        },
    }


def _issue_notice(seizure, rule, *, actor, now) -> IssuedDocument:
    complaint = seizure.complaint
    owner_user = complaint.owner.user if complaint.owner else None
    return document_issue(
        kind=NOTICE_KIND,
        template=NOTICE_TEMPLATE,
        context=notice_context(seizure, rule),
        jurisdiction=complaint.jurisdiction,
        actor=actor,
        title=_("Notice of seizure of a barking dog"),
        number=seizure.impound_case.number,
        subject=seizure,
        owner_user=owner_user,
        now=now,
    )


def seizure_notice(seizure: BarkingSeizure) -> IssuedDocument | None:
    """The archived notice issued with the seizure."""
    return (
        IssuedDocument.objects.filter(
            subject_type=ContentType.objects.get_for_model(BarkingSeizure),
            subject_id=seizure.pk,
            kind=NOTICE_KIND,
            voids__isnull=True,
        )
        .order_by("issued_at", "pk")
        .first()
    )
