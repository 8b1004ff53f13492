"""Bite reports (C39, C40), the requests for proof of vaccination and insurance (RAB-09),
and the officer's decision other than confinement (NB Sec. 6-96(6); GL 701 Subd. 21).

- ``bite_report_record``: the report as received, numbered ``BR-<year>-<n>``, with the
  vaccination on file at the bite (licensing's ``vaccination_status``, stored), the owner's
  reporting deadline where the city has one (NB Sec. 6-96(2): ``owner_bite_report_hours``,
  stored with its section, never recomputed) and whom the report goes to.
- ``document_request_log`` / ``document_request_received``: the police's request for
  written proof of vaccination or insurance, and its answer.
- ``decisions_offered``: the decisions the city's ordinance offers for this bite, each
  with its section, or the reason it is not offered.
- ``bite_decide``: destroy for testing (a ``notices.Decision`` and a ``LabSubmission``),
  not a rabies suspect (Glencoe DEF-09), no action possible, or Glencoe's Subd. 21(C)
  seizure and Hearing Examiner (``rabies.services.hearings``). Confinement is
  ``rabies.services.quarantine``; an exposure case is ``rabies.services.exposures``.
- ``bite_hearing_decide``: the Examiner's decision on a 21(C) bite and what follows.
"""

from datetime import UTC, date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from licensing.services.vaccination import vaccination_status
from notices.models import Decision, DecisionOutcome
from ordinance.calendar import due_datetime
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import (
    BiteDecision,
    BiteReport,
    BiterKind,
    BiteStatus,
    DocumentRequest,
    HearingOutcome,
    ReporterKind,
    RequestedDocument,
    SalivaExposure,
    VictimKind,
)

from . import hearings
from .common import city_rule, has_exposure_rules, locked, refuse_unless_may
from .testing import lab_submit

# The descriptive fields of a report, taken as given (stripped).
TEXT_FIELDS = (
    "reporter_name",
    "reporter_phone",
    "bitten_where",
    "victim_name",
    "victim_address",
    "victim_phone",
    "injuries",
    "treated_by",
    "provocation",
    "biter_species",
    "biter_description",
    "biter_owner_name",
    "biter_owner_address",
    "diagnosis",
)
DESTROY_KIND = "rabies_destroy_for_testing"
# The decisions recorded here (confinement and an exposure case have services of their own).
DECIDED_HERE = (
    BiteDecision.DESTROY_FOR_TESTING,
    BiteDecision.NOT_SUSPECT,
    BiteDecision.NO_ACTION,
    BiteDecision.HEARING,
)
HEARING_OUTCOMES = (HearingOutcome.EUTHANIZE_AND_TEST, HearingOutcome.RELEASE)


def _local_date(moment: datetime) -> date:
    return timezone.localtime(moment).date()


def biter_species(bite: BiteReport) -> str:
    """The biting animal's species as the profile lists name them (lower case)."""
    if bite.animal_id:
        return bite.animal.species
    return (bite.biter_species or "").strip().lower()


def meets_suspect_definition(bite: BiteReport) -> bool:
    """Glencoe DEF-09 (Subd. 1(N)): it bit a person and broke the skin, or exposed a
    person's open wound or mucous membrane to its saliva. The facts only: whether the
    animal is a suspect stays a person's call."""
    return bite.victim_kind == VictimKind.PERSON and (
        bool(bite.skin_broken)
        or bite.saliva_exposure in (SalivaExposure.OPEN_WOUND, SalivaExposure.MUCOUS_MEMBRANE)
    )


def _animal_in(jurisdiction, pk, field, label) -> Animal | None:
    if pk in (None, ""):
        return None
    animal = (
        Animal.objects.select_related("owner", "jurisdiction")
        .prefetch_related("vaccinations")
        .filter(pk=pk, jurisdiction=jurisdiction)
        .first()
    )
    if animal is None:
        raise Refused.because(
            label,
            _("No animal with this ID is registered in %(city)s.") % {"city": jurisdiction},
            field=field,
        )
    return animal


def _recipient(jurisdiction, reporter_kind, on) -> tuple[str, str]:
    keys = ["bite_report_recipient"]
    if reporter_kind == ReporterKind.VETERINARIAN:
        keys.insert(0, "vet_suspect_report_recipient")
    for key in keys:
        rule = city_rule(jurisdiction, key, on=on)
        if rule is not None:
            return str(rule.value), rule.citation
    return "", ""


@refusing()
@transaction.atomic
def bite_report_record(
    *,
    jurisdiction: Jurisdiction,
    actor,
    reporter_kind: str,
    reported_at: datetime,
    bitten_at: datetime,
    biter_kind: str,
    victim_kind: str = VictimKind.PERSON,
    animal=None,
    victim_animal=None,
    skin_broken: bool | None = None,
    saliva_exposure: str = SalivaExposure.UNKNOWN,
    provoked: bool | None = None,
    now: datetime | None = None,
    **text,
) -> BiteReport:
    """Record a bite as reported (C39) or a veterinarian's rabies-suspect report (C40).

    ``animal`` / ``victim_animal``: an ``Animal`` or its pk, registered in the city."""
    now = now or timezone.now()
    refuse_unless_serves(actor, jurisdiction)
    unknown = set(text) - set(TEXT_FIELDS)
    if unknown:
        raise TypeError(f"bite_report_record: unknown fields {sorted(unknown)}")
    text = {k: (v or "").strip() for k, v in text.items()}
    if bitten_at > now:
        raise Refused.because(
            _("Date and time of the bite"),
            _("The bite cannot be in the future."),
            field="bitten_at",
        )
    if reported_at > now:
        raise Refused.because(
            _("Reported at"), _("The report cannot be in the future."), field="reported_at"
        )
    if reported_at < bitten_at:
        raise Refused.because(
            _("Reported at"),
            _("The report cannot come before the bite."),
            field="reported_at",
        )
    if not text.get("reporter_name"):
        raise Refused.because(_("Reporter"), _("Give the reporter's name."), field="reporter_name")
    if not text.get("bitten_where"):
        raise Refused.because(_("Where"), _("Say where the bite happened."), field="bitten_where")
    bite_day = _local_date(bitten_at)
    if reporter_kind == ReporterKind.VETERINARIAN and not text.get("diagnosis"):
        raise Refused.because(
            _("Diagnosis"),
            _("A veterinarian's report of a rabies suspect gives the diagnosis."),
            rule_citation(jurisdiction, "RAB-10"),
            field="diagnosis",
        )
    # The biting animal.
    if not isinstance(animal, Animal):
        animal = _animal_in(jurisdiction, animal, "animal", _("Biting animal"))
    elif animal.jurisdiction_id != jurisdiction.pk:
        raise Refused.because(
            _("Biting animal"),
            _("No animal with this ID is registered in %(city)s.") % {"city": jurisdiction},
            field="animal",
        )
    if biter_kind == BiterKind.REGISTERED:
        if animal is None:
            raise Refused.because(
                _("Biting animal"),
                _("Give the registered animal's ID, or choose a stray or wild animal."),
                field="animal",
            )
        text["biter_species"] = ""
    else:
        animal = None
        if not text.get("biter_species"):
            raise Refused.because(
                _("Species"),
                _("Give the species of the stray or wild animal."),
                field="biter_species",
            )
    # The victim.
    if victim_kind == VictimKind.ANIMAL:
        if not isinstance(victim_animal, Animal):
            victim_animal = _animal_in(jurisdiction, victim_animal, "victim_animal", _("Victim"))
        if victim_animal is None:
            raise Refused.because(
                _("Victim"), _("Give the bitten animal's ID."), field="victim_animal"
            )
        if animal is not None and victim_animal.pk == animal.pk:
            raise Refused.because(
                _("Victim"),
                _("The bitten animal cannot be the biting animal."),
                field="victim_animal",
            )
    else:
        victim_animal = None
        if not text.get("victim_name"):
            raise Refused.because(
                _("Victim"), _("Give the name of the person bitten."), field="victim_name"
            )

    recipient, _recipient_citation = _recipient(jurisdiction, reporter_kind, bite_day)
    bite = BiteReport(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, "rabies-BR", bite_day.year, "BR"),
        status=BiteStatus.OPEN,
        status_changed_at=now,
        reporter_kind=reporter_kind,
        reported_at=reported_at,
        report_recipient=recipient,
        bitten_at=bitten_at,
        victim_kind=victim_kind,
        victim_animal=victim_animal,
        skin_broken=skin_broken,
        saliva_exposure=saliva_exposure,
        provoked=provoked,
        biter_kind=biter_kind,
        animal=animal,
        officer=actor,
        **{k: text.get(k, "") for k in TEXT_FIELDS},
    )
    if animal is not None:
        status = vaccination_status(animal, on=bite_day)
        bite.vaccination = status.vaccination
        bite.vaccination_state = status.state
        bite.vaccination_summary = str(status)[:300]
    late_rule = None
    if reporter_kind == ReporterKind.OWNER:
        if city_rule(jurisdiction, "owner_bite_report_hours", on=bite_day) is not None:
            # Counted in elapsed hours (UTC), so a change of clocks adds or takes none.
            due, late_rule = due_datetime(
                jurisdiction, "owner_bite_report_hours", bitten_at.astimezone(UTC)
            )
            bite.owner_report_due_at = due
            bite.owner_report_citation = late_rule.citation
            bite.owner_report_late = reported_at > due
    bite.save()
    Event.record(
        "rabies.bite.reported",
        bite,
        actor=actor,
        at=now,
        summary=_("%(n)s: %(kind)s reported a bite by %(biter)s")
        % {"n": bite.number, "kind": bite.get_reporter_kind_display(), "biter": bite.biter_label()},
        data={"reporter_kind": reporter_kind, "animal": animal.pk if animal else None},
    )
    if bite.owner_report_late:
        bite.flag(
            _(
                "The owner reported the bite late: the report was due by %(due)s "
                "(%(hours)s hours after the bite)."
            )
            % {
                "due": date_format(timezone.localtime(bite.owner_report_due_at), "DATETIME_FORMAT"),
                "hours": late_rule.value,
            },
            late_rule.citation,
            on=timezone.localdate(now),
            actor=actor,
            at=now,
        )
    deemed = city_rule(jurisdiction, "deemed_rabid_species", on=bite_day)
    if (
        deemed is not None
        and victim_kind == VictimKind.ANIMAL
        and biter_kind == BiterKind.WILD
        and has_exposure_rules(jurisdiction, on=bite_day)
        and biter_species(bite) in [s.lower() for s in deemed.value]
    ):
        bite.flag(
            _("An animal was bitten by a %(species)s, deemed rabid: open an exposure case.")
            % {"species": bite.biter_species},
            deemed.citation,
            on=timezone.localdate(now),
            actor=actor,
            at=now,
        )
    return bite


# --- Requests for written proof (RAB-09) -------------------------------------------------


@refusing()
@transaction.atomic
def document_request_log(
    bite: BiteReport, *, actor, kind: str, why_warranted: str, requested_on: date, now=None
) -> DocumentRequest:
    """Log the police's request for written proof of vaccination or insurance (RAB-09)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    if kind not in RequestedDocument.values:
        raise Refused.because(_("Document"), _("Choose the document requested."), field="kind")
    if not why_warranted.strip():
        raise Refused.because(
            _("Why it is warranted"),
            _("Say why the request is warranted."),
            rule_citation(bite.jurisdiction, "RAB-09"),
            field="why_warranted",
        )
    refuse_if_future(
        requested_on, _("Requested on"), field="requested_on", today=timezone.localdate(now)
    )
    if requested_on < _local_date(bite.bitten_at):
        raise Refused.because(
            _("Requested on"), _("The request cannot come before the bite."), field="requested_on"
        )
    request = DocumentRequest.objects.create(
        bite_report=bite,
        jurisdiction=bite.jurisdiction,
        kind=kind,
        why_warranted=why_warranted.strip(),
        requested_on=requested_on,
        requested_by=actor,
    )
    Event.record(
        "rabies.bite.document_requested",
        bite,
        actor=actor,
        at=now,
        summary=_("Requested: %(doc)s") % {"doc": request.get_kind_display()},
        data={"request": request.pk, "kind": kind},
    )
    return request


@refusing()
@transaction.atomic
def document_request_received(
    request: DocumentRequest, *, actor, received_on: date, file=None, note: str = "", now=None
) -> DocumentRequest:
    """The document came in: its date and a copy (the form checks the upload)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, request.jurisdiction)
    request = DocumentRequest.objects.select_for_update().get(pk=request.pk)
    if request.received_on:
        raise Refused.because(_("Document"), _("This document was already received."))
    refuse_if_future(
        received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
    )
    if received_on < request.requested_on:
        raise Refused.because(
            _("Received on"),
            _("The document cannot be received before it was requested."),
            field="received_on",
        )
    if not file:
        raise Refused.because(_("Document"), _("Attach a copy of the document."), field="file")
    request.received_on, request.file, request.note = received_on, file, note.strip()
    request.save(update_fields=["received_on", "file", "note"])
    Event.record(
        "rabies.bite.document_received",
        request.bite_report,
        actor=actor,
        at=now,
        summary=_("Received: %(doc)s") % {"doc": request.get_kind_display()},
        data={"request": request.pk},
    )
    return request


# --- The decision (NB Sec. 6-96(6); GL 701 Subd. 21) -------------------------------------


class Offer:
    """One decision for this bite: offered (with its section) or not (with the reason)."""

    def __init__(self, decision, *, offered, citation="", reason=""):
        self.decision = BiteDecision(decision)
        self.offered = offered
        self.citation = citation
        self.reason = reason

    @property
    def label(self) -> str:
        return str(self.decision.label)

    def __repr__(self):
        return f"Offer({self.decision.value}, offered={self.offered})"


def _quarantined_species(bite, on):
    return city_rule(bite.jurisdiction, "rabies_suspect_quarantine_species", on=on)


def _destroy_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "destroy_for_testing", on=on)
    if rule is not None and rule.value:
        return Offer(BiteDecision.DESTROY_FOR_TESTING, offered=True, citation=rule.citation)
    species = _quarantined_species(bite, on)
    if species is not None and biter_species(bite) in species.value:
        return Offer(
            BiteDecision.DESTROY_FOR_TESTING,
            offered=False,
            citation=species.citation,
            reason=_(
                "%(city)s's ordinance quarantines a dog, cat or ferret that is a rabies "
                "suspect; it does not provide for destroying it for testing."
            )
            % {"city": bite.jurisdiction},
        )
    return Offer(
        BiteDecision.DESTROY_FOR_TESTING,
        offered=False,
        citation=rule_citation(bite.jurisdiction, "RAB-12"),
        reason=_("%(city)s's ordinance has no rule for destroying a biting animal for testing.")
        % {"city": bite.jurisdiction},
    )


def _hearing_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "rabies_suspect_other_species_hearing", on=on)
    if rule is None or not rule.value:
        return Offer(
            BiteDecision.HEARING,
            offered=False,
            reason=_(
                "%(city)s's ordinance has no Hearing Examiner's procedure for a biting animal."
            )
            % {"city": bite.jurisdiction},
        )
    species = _quarantined_species(bite, on)
    if species is not None and biter_species(bite) in species.value:
        return Offer(
            BiteDecision.HEARING,
            offered=False,
            citation=species.citation,
            reason=_("A dog, cat or ferret that is a rabies suspect is quarantined instead."),
        )
    return Offer(BiteDecision.HEARING, offered=True, citation=rule.citation)


def _not_suspect_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "rabies_suspect_definition", on=on)
    if rule is None:
        return Offer(
            BiteDecision.NOT_SUSPECT,
            offered=False,
            reason=_("%(city)s's ordinance does not define a rabies suspect.")
            % {"city": bite.jurisdiction},
        )
    return Offer(BiteDecision.NOT_SUSPECT, offered=True, citation=rule.citation)


def decisions_offered(bite: BiteReport, *, on: date | None = None) -> list[Offer]:
    """The decisions recorded here that the city's ordinance offers for ``bite`` (in force on the
    bite's date), each with its section or the reason it is not offered."""
    on = on or _local_date(bite.bitten_at)
    return [
        _destroy_offer(bite, on),
        _hearing_offer(bite, on),
        _not_suspect_offer(bite, on),
        Offer(BiteDecision.NO_ACTION, offered=True),
    ]


def _officer_name(actor) -> str:
    return actor.get_full_name() or actor.get_username()


def _close(bite, transition, *, actor, at, note, summary, citation="", fields=()):
    bite.closed_on = timezone.localdate(at)
    bite.closing_note = str(note)[:300]
    bite.apply(
        transition,
        actor=actor,
        at=at,
        summary=summary,
        citation=citation,
        fields=["closed_on", "closing_note", *fields],
    )


@refusing()
@transaction.atomic
def bite_decide(
    bite: BiteReport,
    decision: str,
    reasons: str,
    actor,
    *,
    laboratory: str = "",
    destroyed_on: date | None = None,
    submitted_on: date | None = None,
    specimen_reference: str = "",
    owner_known: bool = True,
    scheduled_for: datetime | None = None,
    place: str = "",
    now: datetime | None = None,
) -> BiteReport:
    """The officer's decision on an open bite (other than confinement and exposure)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = (
        BiteReport.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal__owner")
        .get(pk=bite.pk)
    )
    refuse_unless_may(bite, "no_action", _("a decision"))  # always offered: awaits one
    if decision not in DECIDED_HERE:
        raise Refused.because(
            _("Decision"), _("Choose one of the decisions offered."), field="decision"
        )
    reasons = (reasons or "").strip()
    if not reasons:
        raise Refused.because(_("Reasons"), _("Give the reasons."), field="reasons")
    offer = {o.decision: o for o in decisions_offered(bite)}[BiteDecision(decision)]
    if not offer.offered:
        raise Refused.because(_("Decision"), offer.reason, offer.citation, field="decision")
    bite.decision, bite.decision_reasons = decision, reasons
    bite.decision_citation, bite.decided_at, bite.decided_by = offer.citation, now, actor
    decided = ("decision", "decision_reasons", "decision_citation", "decided_at", "decided_by")
    label = BiteDecision(decision).label

    if decision == BiteDecision.DESTROY_FOR_TESTING:
        record = Decision.objects.create(
            jurisdiction=bite.jurisdiction,
            subject_type=ContentType.objects.get_for_model(BiteReport),
            subject_id=bite.pk,
            kind=DESTROY_KIND,
            outcome=DecisionOutcome.ORDERED,
            decided_by_name=_officer_name(actor),
            decided_by_capacity=str(_("Officer")),
            decided_on=timezone.localdate(now),
            reasons=reasons,
            citation=offer.citation,
            recorded_by=actor,
        )
        bite.save(update_fields=decided)
        Event.record(
            "rabies.bite.destroy_for_testing",
            bite,
            actor=actor,
            at=now,
            summary=f"{label} ({offer.citation})",
            data={"decision": record.pk},
        )
        lab_submit(
            bite,
            actor=actor,
            laboratory=laboratory,
            destroyed_on=destroyed_on,
            submitted_on=submitted_on,
            specimen_reference=specimen_reference,
            decision=record,
            transition="destroy",
            now=now,
        )
        bite.refresh_from_db(fields=["status", "status_changed_at"])
        return bite
    if decision == BiteDecision.HEARING:
        bite.suspect, bite.suspect_reasons = True, reasons
        hearings.hearing_open(
            actor=actor,
            citation=offer.citation,
            grounds=reasons,
            bite_report=bite,
            owner_known=owner_known,
            scheduled_for=scheduled_for,
            place=place,
            now=now,
        )
        bite.apply(
            "hearing",
            actor=actor,
            at=now,
            summary=_("Seized; notice and a Hearing Examiner's hearing (%(c)s)")
            % {"c": offer.citation},
            citation=offer.citation,
            fields=[*decided, "suspect", "suspect_reasons"],
        )
        return bite
    if decision == BiteDecision.NOT_SUSPECT:
        bite.suspect, bite.suspect_reasons = False, reasons
        decided = (*decided, "suspect", "suspect_reasons")
    _close(
        bite,
        decision,
        actor=actor,
        at=now,
        note=f"{label}: {reasons}",
        summary=f"{label} ({offer.citation})" if offer.citation else str(label),
        citation=offer.citation,
        fields=decided,
    )
    return bite


@refusing()
@transaction.atomic
def bite_hearing_decide(
    bite: BiteReport, *, actor, outcome: str, now: datetime | None = None, **decision
) -> BiteReport:
    """The Hearing Examiner's decision on a 21(C) bite: euthanize and test (the laboratory
    submission follows, ``lab_submit``) or release (the report closes)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = locked(BiteReport, bite.pk)
    refuse_unless_may(bite, "release", _("the Hearing Examiner's decision"))
    hearing = bite.hearings.order_by("-pk").first()
    if hearing is None:
        raise Refused.because(_("Hearing"), _("No Hearing Examiner proceeding is open."))
    hearing = hearings.hearing_decide(
        hearing=hearing, actor=actor, outcome=outcome, allowed=HEARING_OUTCOMES, now=now, **decision
    )
    if outcome == HearingOutcome.RELEASE:
        _close(
            bite,
            "release",
            actor=actor,
            at=now,
            note=_("Hearing Examiner: release (%(c)s)") % {"c": hearing.citation},
            summary=_("Released by the Hearing Examiner's decision"),
            citation=hearing.citation,
        )
    return bite


def hearing_awaits_submission(bite: BiteReport, hearing) -> bool:
    return (
        bite.may("test_after_hearing")
        and hearing is not None
        and hearing.outcome == HearingOutcome.EUTHANIZE_AND_TEST
    )
