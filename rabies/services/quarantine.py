"""Ordering a quarantine, its inspections, the move to the facility, the end of the period
and the examination (RAB-13 to RAB-21; Appendix B4; C41, C43, C44).

North Branch Sec. 6-98: a biting animal is confined ``bite_confinement_days`` from the bite
(``bite_confinement_anchor``); at home only on proof of current vaccination and with the
officer's consent (6-98(1)), under the profile's conditions, otherwise at the facility at
the owner's expense (6-98(2)), an impound case. Glencoe 701 Subd. 21: a vaccinated dog,
cat or ferret (``rabies_suspect_quarantine_species``) is quarantined by the owner (21(B));
an unvaccinated one is seized and impounded (21(A)).

Vaccination is licensing's one answer (``vaccination_status``), stored on the quarantine.
The end is ``ordinance.calendar.due_date`` (calendar days: weekends and holidays count).
"""

from dataclasses import dataclass, field
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import GateKind, Pound
from impound.services.intake import case_intake
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models.registry import Species
from licensing.services.vaccination import covered_until, vaccination_status
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import (
    QUARANTINE_OPEN,
    BiteDecision,
    BiteReport,
    BiteStatus,
    Inspection,
    InspectionKind,
    Quarantine,
    QuarantinePlace,
    QuarantineStatus,
)

from .common import city_rule, deadline, locked, refuse_unless_may

ORDER_KIND = "rabies_quarantine_order"
LEASH = "{leash}"
CONFINE_KEY = "bite_confinement_days"
# A quarantine is ordered in its first state: confined where it is placed.
FIRST_STATE = {
    QuarantinePlace.HOME: QuarantineStatus.HOME,
    QuarantinePlace.FACILITY: QuarantineStatus.FACILITY,
}


def _d(value: date) -> str:
    return date_format(value)


def bite_date(bite: BiteReport) -> date:
    return timezone.localtime(bite.bitten_at).date()


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


@dataclass
class Options:
    """Where this bite's animal may be confined, and why (shown on the order form)."""

    home: bool
    home_reason: str
    home_citation: str
    vaccinated: bool
    vaccination: object  # licensing's VaccinationStatus or None
    species: str
    conditions: list = field(default_factory=list)
    other_species: str = ""  # Glencoe 21(C): not quarantined here (Hearing Examiner)
    other_species_citation: str = ""


def conditions_for(jurisdiction, *, on: date) -> list[dict]:
    """The profile's conditions of confinement at home, the leash filled in, each cited."""
    rule = city_rule(jurisdiction, "home_confinement_conditions", on=on)
    if rule is None:
        return []
    leash = city_rule(jurisdiction, "quarantine_leash_max_ft", on=on)
    out = []
    for text in rule.value:
        citation = rule.citation
        if LEASH in text:
            text = text.replace(LEASH, str(leash.value) if leash else "?")
            if leash and leash.citation != rule.citation:
                citation = f"{rule.citation}; {leash.citation}"
        out.append({"text": text, "citation": citation})
    return out


def confinement_options(bite: BiteReport, *, on: date) -> Options:
    j = bite.jurisdiction
    animal = bite.animal
    species = animal.species if animal else (bite.biter_species or "").strip().lower()
    status = vaccination_status(animal, on=bite_date(bite)) if animal else None
    vaccinated = bool(status and status.is_vaccinated)
    conditions = conditions_for(j, on=on)
    requires = city_rule(j, "home_confinement_requires_vaccination", on=on)
    suspects = city_rule(j, "rabies_suspect_quarantine_species", on=on)
    citation = (requires or suspects).citation if (requires or suspects) else ""
    options = Options(False, "", citation, vaccinated, status, species, conditions)
    if suspects is not None and species not in suspects.value:
        hearing = city_rule(j, "rabies_suspect_other_species_hearing", on=on)
        options.other_species = _(
            "%(city)s quarantines a dog, cat or ferret that is a rabies suspect; another "
            "animal is seized and goes before the Hearing Examiner."
        ) % {"city": j}
        options.other_species_citation = hearing.citation if hearing else suspects.citation
    if animal is None:
        options.home_reason = _(
            "A stray or wild animal has no owner's residence to be confined at: the facility."
        )
    elif not conditions:
        options.home_reason = _("%(city)s's ordinance has no confinement at home.") % {"city": j}
    elif options.other_species:
        options.home_reason = options.other_species
        options.home_citation = options.other_species_citation
    elif (requires is None or requires.value or suspects is not None) and not vaccinated:
        options.home_reason = _(
            "No proof of current vaccination on the date of the bite (%(status)s): "
            "confinement at the facility."
        ) % {"status": status.label.lower() if status else _("not known")}
    else:
        options.home = True
        options.home_reason = _("Currently vaccinated: %(status)s.") % {"status": status.reason}
    return options


def _period(bite: BiteReport):
    j = bite.jurisdiction
    start = bite_date(bite)
    anchor = city_rule(j, "bite_confinement_anchor", on=start)
    if anchor is not None and anchor.value != "bite_date":
        raise Refused.because(
            _("Period"),
            _("The confinement is counted from %(what)s, which this screen does not know.")
            % {"what": anchor.value},
            anchor.citation,
        )
    ends_on, rule = deadline(j, CONFINE_KEY, start)
    label = _("the date of the bite")
    basis = _("%(n)s from %(label)s, %(start)s (%(cite)s)") % {
        "n": rule.display(),
        "label": label,
        "start": _d(start),
        "cite": rule.citation,
    }
    citation = rule.citation
    if anchor is not None and anchor.citation not in citation:
        citation = f"{citation}; {anchor.citation}"
    return start, label, ends_on, rule.citation, basis[:300], citation


def vaccination_summary(status) -> dict:
    if status is None:
        return {"label": _("Not known (no registered animal)"), "reason": "", "citation": ""}
    out = {"label": status.label, "reason": status.reason, "citation": status.citation}
    v = status.vaccination
    if v is not None:
        out.update(
            vaccinated_on=v.vaccinated_on,
            until=covered_until(v),
            tag=v.rabies_tag_number,
            veterinarian=v.veterinarian_name,
            clinic=v.clinic_name,
        )
    return out


def _facility(quarantine, pound, actor, now, *, seized_where, start, gate):
    if pound is None:
        raise Refused.because(
            _("Pound"), _("Choose the pound the animal is confined at."), field="pound"
        )
    animal = quarantine.animal
    description = {"species": quarantine.species}
    if animal is None:
        description["color"] = ""
        description["distinguishing_traits"] = quarantine.description
    return case_intake(
        jurisdiction=quarantine.jurisdiction,
        pound=pound,
        actor=actor,
        ground="rabies_suspect",
        placed_at=now,
        seized_on=timezone.localdate(now),
        seized_where=seized_where[:200],
        brought_by_name=actor.get_full_name() or actor.username,
        brought_by_address=_("Animal control officer, %(city)s")
        % {"city": quarantine.jurisdiction},
        animal=animal,
        hold_key=CONFINE_KEY,
        hold_start=start,
        gates=((GateKind.RELEASE_ORDER, gate.label[:200], gate.citation, True),),
        **description,
    )


@refusing()
@transaction.atomic
def quarantine_order(
    bite: BiteReport,
    *,
    place: str,
    actor,
    consent_by_name: str = "",
    consent_on: date | None = None,
    home_address: str = "",
    pound: Pound | None = None,
    enclosure_approved_by: str = "",
    enclosure_approved_on: date | None = None,
    now: datetime | None = None,
) -> Quarantine:
    """Order the confinement of the biting animal (NB 6-98; GL 21(A), (B)); issue C41."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = locked(BiteReport, bite.pk)
    j = bite.jurisdiction
    if bite.status == BiteStatus.QUARANTINE:
        if bite.quarantines.filter(status__in=QUARANTINE_OPEN).exists():
            raise Refused.because(
                str(BiteReport.KIND),
                _("%(n)s already has a quarantine running.") % {"n": bite.number},
            )
    else:
        refuse_unless_may(bite, "confine", _("an order of confinement"))
    options = confinement_options(bite, on=today)
    if options.other_species:
        raise Refused.because(
            _("Species"), options.other_species, options.other_species_citation, field="place"
        )
    start, label, ends_on, end_citation, basis, decision_citation = _period(bite)
    gate = release_gate(j, on=today)
    animal = bite.animal
    quarantine = Quarantine(
        jurisdiction=j,
        number=year_number(j, "rabies-Q", today.year, "Q"),
        bite_report=bite,
        animal=animal,
        species=options.species if options.species in Species.values else "other",
        description=(
            ", ".join(p for p in (animal.name, animal.breed, animal.color) if p)
            if animal
            else (bite.biter_description or bite.biter_label())
        )[:300],
        starts_on=start,
        start_label=label,
        ends_on=ends_on,
        end_citation=end_citation,
        end_basis=basis,
        vaccinated=options.vaccinated,
        vaccination=options.vaccination.vaccination if options.vaccination else None,
        place=place,
        status=FIRST_STATE.get(place, ""),
        officer=actor,
        status_changed_at=now,
    )
    if place == QuarantinePlace.HOME:
        if not options.home:
            raise Refused.because(
                _("Where"), options.home_reason, options.home_citation, field="place"
            )
        missing = []
        if not consent_by_name.strip():
            missing.append(("consent_by_name", _("Name the officer who consents.")))
        if consent_on is None:
            missing.append(("consent_on", _("Enter the date of the consent.")))
        address = home_address.strip() or (animal.owner.address if animal else "")
        if not address:
            missing.append(("home_address", _("Give the place of confinement.")))
        if missing:
            raise Refused(
                [
                    Refused.because(_("Consent"), msg, options.home_citation, field=f).checks[0]
                    for f, msg in missing
                ]
            )
        refuse_if_future(consent_on, _("Consent"), field="consent_on", today=today)
        quarantine.consent_by_name = consent_by_name.strip()
        quarantine.consent_on = consent_on
        quarantine.home_address = address[:300]
        quarantine.conditions = options.conditions
    elif place == QuarantinePlace.FACILITY:
        refuse_if_future(
            enclosure_approved_on,
            _("Enclosure approved on"),
            field="enclosure_approved_on",
            today=today,
        )
        quarantine.enclosure_approved_by = enclosure_approved_by.strip()
        quarantine.enclosure_approved_on = enclosure_approved_on
        quarantine.home_address = (animal.owner.address if animal else "")[:300]
        quarantine.impound_case = _facility(
            quarantine,
            pound,
            actor,
            now,
            seized_where=home_address.strip() or bite.bitten_where,
            start=start,
            gate=gate,
        )
    else:
        raise Refused.because(_("Where"), _("Choose where the animal is confined."), field="place")
    quarantine.save()
    Event.record(
        "rabies.quarantine.ordered",
        quarantine,
        actor=actor,
        at=now,
        summary=_("%(n)s ordered: %(place)s until %(end)s (%(cite)s)")
        % {
            "n": quarantine.number,
            "place": quarantine.get_place_display().lower(),
            "end": _d(ends_on),
            "cite": end_citation,
        },
        data={"bite": bite.pk, "place": place, "ends_on": str(ends_on)},
    )
    if bite.may("confine"):
        bite.decision = BiteDecision.CONFINE
        bite.decided_at, bite.decided_by = now, actor
        bite.decision_citation = decision_citation[:200]
        bite.apply(
            "confine",
            actor=actor,
            at=now,
            summary=_("Confinement ordered: %(q)s") % {"q": quarantine.number},
            citation=end_citation,
            data={"quarantine": quarantine.pk},
            fields=["decision", "decided_at", "decided_by", "decision_citation"],
        )
    quarantine.order = issue_order(quarantine, options, gate, actor=actor, now=now)
    quarantine.save(update_fields=["order"])
    return quarantine


def issue_order(quarantine, options, gate, *, actor, now):
    from notices.services import document_issue

    animal = quarantine.animal
    owner = animal.owner if animal else None
    impound = quarantine.impound_case
    context = {
        "quarantine": {
            "number": quarantine.number,
            "place": quarantine.get_place_display(),
            "at_home": quarantine.place == QuarantinePlace.HOME,
            "home_address": quarantine.home_address,
            "starts_on": quarantine.starts_on,
            "start_label": quarantine.start_label,
            "ends_on": quarantine.ends_on,
            "end_citation": quarantine.end_citation,
            "end_basis": quarantine.end_basis,
            "consent_by_name": quarantine.consent_by_name,
            "consent_on": quarantine.consent_on,
            "enclosure_approved_by": quarantine.enclosure_approved_by,
            "enclosure_approved_on": quarantine.enclosure_approved_on,
            "home_citation": options.home_citation,
        },
        "bite": {
            "number": quarantine.bite_report.number if quarantine.bite_report else "",
            "bitten_at": timezone.localtime(quarantine.bite_report.bitten_at)
            if quarantine.bite_report
            else None,
        },
        "animal": {
            "name": animal.name if animal else "",
            "species": quarantine.get_species_display(),
            "breed": animal.breed if animal else "",
            "color": animal.color if animal else "",
            "description": quarantine.description,
        },
        "owner": {"name": owner.name, "address": owner.address} if owner else None,
        "vaccination": vaccination_summary(options.vaccination),
        "conditions": quarantine.conditions,
        "impound": {
            "number": impound.number,
            "pound": impound.pound.name,
            "pound_address": impound.pound.address,
            "ground_citation": impound.ground_citation,
        }
        if impound
        else None,
        "gate": {"label": gate.label, "citation": gate.citation},
        "officer": actor.get_full_name() or actor.username,
    }
    return document_issue(
        kind=ORDER_KIND,
        template="rabies/quarantine_order.html",
        context=context,
        jurisdiction=quarantine.jurisdiction,
        actor=actor,
        title=_("Quarantine order"),
        number=quarantine.number,
        subject=quarantine,
        owner_user=getattr(owner, "user", None) if owner else None,
        now=now,
    )


# --- Inspections (RAB-17, RAB-18) ---------------------------------------------------------


def inspection_citation(quarantine) -> str:
    j = quarantine.jurisdiction
    return rule_citation(j, "RAB-17") or (
        quarantine.conditions[0]["citation"] if quarantine.conditions else quarantine.end_citation
    )


def facility_citation(quarantine) -> str:
    """The section that lets the officer move a breached home confinement to the facility
    (NB Sec. 6-98(6); Glencoe 701 Subd. 21(B) confiscation)."""
    j = quarantine.jurisdiction
    cite = rule_citation(j, "RAB-19")
    if cite:
        return cite
    rule = city_rule(j, "home_confinement_conditions", on=quarantine.starts_on)
    return rule.citation if rule else quarantine.end_citation


@refusing()
@transaction.atomic
def inspection_log(
    quarantine: Quarantine,
    *,
    actor,
    at: datetime,
    inspector_name: str,
    kind: str = InspectionKind.INSPECTION,
    checks=(),
    compliant: bool = True,
    notes: str = "",
    now: datetime | None = None,
) -> Inspection:
    """Log an inspection of a home confinement, or the owner's report of a change in the
    animal's health or behavior (flagged for the officer)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    # Inspections are of a home confinement: the state a breach moves to the facility from.
    refuse_unless_may(quarantine, "to_facility", _("an inspection"))
    cite = inspection_citation(quarantine)
    if at > now:
        raise Refused.because(
            _("Date and time"), _("The time cannot be in the future."), field="at"
        )
    if timezone.localtime(at).date() < quarantine.starts_on:
        raise Refused.because(
            _("Date and time"),
            _("The confinement began on %(d)s.") % {"d": _d(quarantine.starts_on)},
            cite,
            field="at",
        )
    if not inspector_name.strip():
        raise Refused.because(_("Inspected by"), _("Name who inspected."), field="inspector_name")
    known = [c["text"] for c in quarantine.conditions]
    checked = [c for c in checks if c in known]
    if kind == InspectionKind.OWNER_REPORT and not notes.strip():
        raise Refused.because(_("Notes"), _("Say what the owner reported."), cite, field="notes")
    inspection = Inspection.objects.create(
        quarantine=quarantine,
        jurisdiction=quarantine.jurisdiction,
        kind=kind,
        at=at,
        inspector_name=inspector_name.strip(),
        checks=[{"text": t, "kept": t in checked} for t in known],
        compliant=compliant,
        notes=notes.strip(),
        recorded_by=actor,
    )
    Event.record(
        "rabies.quarantine.inspected",
        quarantine,
        actor=actor,
        at=now,
        summary=_("%(kind)s: %(result)s")
        % {
            "kind": inspection.get_kind_display(),
            "result": _("kept as the order requires")
            if compliant
            else _("not kept as the order requires"),
        },
        data={"inspection": inspection.pk, "compliant": compliant},
    )
    on = timezone.localdate(now)
    if kind == InspectionKind.OWNER_REPORT:
        quarantine.flag(
            _("The owner reported a change in the animal's health or behavior: %(n)s")
            % {"n": notes.strip()},
            cite,
            on=on,
            actor=actor,
            at=now,
        )
    elif not compliant:
        quarantine.flag(
            _("Not kept as the order requires: the officer may move it to the facility."),
            facility_citation(quarantine),
            on=on,
            actor=actor,
            at=now,
        )
    return inspection


def last_breach(quarantine) -> Inspection | None:
    return (
        quarantine.inspections.filter(compliant=False, kind=InspectionKind.INSPECTION)
        .order_by("-at", "-pk")
        .first()
    )


@refusing()
@transaction.atomic
def quarantine_to_facility(
    quarantine: Quarantine,
    *,
    pound: Pound,
    actor,
    reason: str,
    now: datetime | None = None,
) -> Quarantine:
    """A breach: move the animal to the facility for the days left (NB 6-98(6); GL
    21(B)); its impound case holds to the same end, counted from the original start."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    refuse_unless_may(quarantine, "to_facility", _("a move to the facility"))
    cite = facility_citation(quarantine)
    if last_breach(quarantine) is None:
        raise Refused.because(
            _("Breach"),
            _("No inspection found the animal not kept as the order requires."),
            cite,
        )
    if not reason.strip():
        raise Refused.because(_("Why"), _("Say why it is moved."), cite, field="reason")
    gate = release_gate(quarantine.jurisdiction, on=today)
    quarantine.impound_case = _facility(
        quarantine,
        pound,
        actor,
        now,
        seized_where=quarantine.home_address,
        start=quarantine.starts_on,
        gate=gate,
    )
    quarantine.place = QuarantinePlace.FACILITY
    quarantine.moved_to_facility_on = today
    quarantine.move_reason = reason.strip()[:300]
    quarantine.apply(
        "to_facility",
        actor=actor,
        at=now,
        summary=_("Moved to the facility for the %(n)s days left (impound case %(c)s): %(r)s")
        % {
            "n": quarantine.days_left(today),
            "c": quarantine.impound_case.number,
            "r": reason.strip(),
        },
        citation=cite,
        data={"impound_case": quarantine.impound_case.pk},
        fields=["impound_case", "place", "moved_to_facility_on", "move_reason"],
    )
    if quarantine.attention:
        quarantine.resolve_flag(note=_("Moved to the facility."), actor=actor, at=now)
    return quarantine


# --- The end of the period (the sweep) and the examination (C44) ---------------------------


def mark_ended(quarantine: Quarantine, *, on: date, at: datetime) -> None:
    quarantine.ended_marked_on = on
    quarantine.apply(
        "end",
        at=at,
        summary=_("Period over on %(d)s: examination and release due (%(s)s)")
        % {"d": _d(quarantine.ends_on), "s": quarantine.end_citation},
        citation=quarantine.end_citation,
        data={"ends_on": str(quarantine.ends_on)},
        fields=["ended_marked_on"],
    )


def exam_citation(quarantine) -> str:
    rule = city_rule(quarantine.jurisdiction, "quarantine_exam_required", on=quarantine.starts_on)
    return rule.citation if rule else quarantine.end_citation


def examiner_capacities(jurisdiction, *, on: date | None = None) -> list[str]:
    """Who examines: Glencoe names the Rabies Control Authority or a veterinarian (21(A),
    (B)); a city without that rule, its animal control officer or a veterinarian."""
    exam = city_rule(jurisdiction, "quarantine_exam_required", on=on or timezone.localdate())
    if exam is not None:
        return [_("Rabies Control Authority"), _("Veterinarian")]
    return [_("Animal control officer"), _("Veterinarian")]


@refusing()
@transaction.atomic
def quarantine_resolve(quarantine: Quarantine, *, actor, note: str, now: datetime | None = None):
    """The officer answers the question put before a person (an owner's report, a breach,
    signs of rabies), saying what was done; the flag and the answer stay in the history."""
    now = now or timezone.now()
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    if not quarantine.attention:
        raise Refused.because(_("Needs a person"), _("Nothing is waiting for a person."))
    if not note.strip():
        raise Refused.because(_("What was done"), _("Say what was done."), field="note")
    quarantine.resolve_flag(note=note.strip()[:300], actor=actor, at=now)
    return quarantine


@refusing()
@transaction.atomic
def quarantine_exam(
    quarantine: Quarantine,
    *,
    actor,
    examined_on: date,
    examiner_name: str,
    examiner_capacity: str,
    clinical_signs: bool,
    notes: str = "",
    now: datetime | None = None,
) -> Quarantine:
    """The examination when the period is over (C44). Signs of rabies escalate: no release."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, quarantine.jurisdiction)
    quarantine = locked(Quarantine, quarantine.pk)
    # The examination may find signs of rabies: it is made while that may follow.
    refuse_unless_may(quarantine, "signs", _("an examination"))
    cite = exam_citation(quarantine)
    if quarantine.examined_on is not None:
        raise Refused.because(
            _("Examination"),
            _("The examination was recorded on %(d)s.") % {"d": _d(quarantine.examined_on)},
            cite,
        )
    if examined_on is None:
        raise Refused.because(_("Examined on"), _("Enter the date."), field="examined_on")
    refuse_if_future(examined_on, _("Examined on"), field="examined_on", today=today)
    if examined_on < quarantine.ends_on:
        raise Refused.because(
            _("Examined on"),
            _("The examination is made when the period is over: not before %(d)s.")
            % {"d": _d(quarantine.ends_on)},
            f"{cite}; {quarantine.end_citation}" if cite != quarantine.end_citation else cite,
            field="examined_on",
        )
    if not examiner_name.strip():
        raise Refused.because(_("Examined by"), _("Name the examiner."), field="examiner_name")
    if examiner_capacity not in examiner_capacities(quarantine.jurisdiction):
        raise Refused.because(
            _("In the capacity of"),
            _("Choose the examiner's capacity."),
            cite,
            field="examiner_capacity",
        )
    if clinical_signs is None:
        raise Refused.because(
            _("Clinical signs"),
            _("Say whether there were clinical signs of rabies."),
            field="clinical_signs",
        )
    quarantine.examined_on = examined_on
    quarantine.examiner_name = examiner_name.strip()
    quarantine.examiner_capacity = examiner_capacity
    quarantine.clinical_signs = clinical_signs
    quarantine.exam_notes = notes.strip()
    fields = ["examined_on", "examiner_name", "examiner_capacity", "clinical_signs", "exam_notes"]
    summary = _("Examined on %(d)s by %(name)s (%(cap)s): %(result)s") % {
        "d": _d(examined_on),
        "name": quarantine.examiner_name,
        "cap": examiner_capacity,
        "result": _("clinical signs of rabies") if clinical_signs else _("no clinical signs"),
    }
    if clinical_signs:
        quarantine.apply(
            "signs", actor=actor, at=now, summary=summary, citation=cite, fields=fields
        )
        destroy = city_rule(quarantine.jurisdiction, "destroy_for_testing", on=today)
        lab = city_rule(quarantine.jurisdiction, "rabies_laboratory", on=today)
        quarantine.flag(
            _(
                "Signs of rabies at the examination: no release; escalate under state law "
                "(laboratory testing)."
            ),
            (lab or destroy).citation if (lab or destroy) else cite,
            on=today,
            actor=actor,
            at=now,
        )
    else:
        quarantine.save(update_fields=fields)
        Event.record("rabies.quarantine.examined", quarantine, actor=actor, at=now, summary=summary)
    return quarantine
