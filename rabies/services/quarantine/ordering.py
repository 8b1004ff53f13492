"""Ordering a quarantine: where the animal may be confined, its period, the order (C41)
(RAB-13 to RAB-16, RAB-20, RAB-21; Appendix B4).

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
from typing import NamedTuple

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
from rabies.models import (
    QUARANTINE_OPEN,
    BiteDecision,
    BiteReport,
    BiteStatus,
    Quarantine,
    QuarantinePlace,
    QuarantineStatus,
)

from ..common import city_rule, deadline, locked
from .gate import release_gate

ORDER_KIND = "rabies_quarantine_order"
LEASH = "{leash}"
CONFINE_KEY = "bite_confinement_days"
# A quarantine is ordered in its first state: confined where it is placed.
FIRST_STATE = {
    QuarantinePlace.HOME: QuarantineStatus.HOME,
    QuarantinePlace.FACILITY: QuarantineStatus.FACILITY,
}


def bite_date(bite: BiteReport) -> date:
    return timezone.localtime(bite.bitten_at).date()


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


class Period(NamedTuple):
    """The confinement's period as stored, and the sections the bite's decision cites."""

    start: date
    label: str
    ends_on: date
    citation: str
    basis: str
    decision_citation: str


def _period(bite: BiteReport) -> Period:
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
        "start": date_format(start),
        "cite": rule.citation,
    }
    citation = rule.citation
    if anchor is not None and anchor.citation not in citation:
        citation = f"{citation}; {anchor.citation}"
    return Period(start, label, ends_on, rule.citation, basis[:300], citation)


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


def facility_intake(quarantine, pound, actor, now, *, seized_where, start, gate):
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


@dataclass(frozen=True)
class Confinement:
    """Where the animal is confined and on whose word: the order form's fields."""

    place: str
    consent_by_name: str = ""
    consent_on: date | None = None
    home_address: str = ""
    pound: Pound | None = None
    enclosure_approved_by: str = ""
    enclosure_approved_on: date | None = None


def _refuse_unless_orderable(bite: BiteReport) -> None:
    """A report awaiting its decision, or a confined bite whose quarantines are all over."""
    if bite.status != BiteStatus.QUARANTINE:
        bite.require("confine", _("an order of confinement"))
    elif bite.quarantines.filter(status__in=QUARANTINE_OPEN).exists():
        raise Refused.because(
            str(BiteReport.KIND),
            _("%(n)s already has a quarantine running.") % {"n": bite.number},
        )


def _description(bite: BiteReport) -> str:
    animal = bite.animal
    if animal is None:
        return (bite.biter_description or bite.biter_label())[:300]
    return ", ".join(p for p in (animal.name, animal.breed, animal.color) if p)[:300]


def _new_quarantine(bite, options: Options, period: Period, place: str, *, actor, now):
    """The quarantine of the bite's animal, its period stored (unsaved)."""
    return Quarantine(
        jurisdiction=bite.jurisdiction,
        number=year_number(bite.jurisdiction, "rabies-Q", timezone.localdate(now).year, "Q"),
        bite_report=bite,
        animal=bite.animal,
        species=options.species if options.species in Species.values else "other",
        description=_description(bite),
        starts_on=period.start,
        start_label=period.label,
        ends_on=period.ends_on,
        end_citation=period.citation,
        end_basis=period.basis,
        vaccinated=options.vaccinated,
        vaccination=options.vaccination.vaccination if options.vaccination else None,
        place=place,
        status=FIRST_STATE.get(place, ""),
        officer=actor,
        status_changed_at=now,
    )


def _at_home(quarantine: Quarantine, c: Confinement, options: Options, today: date) -> None:
    """At the owner's residence: only where the options allow it, with the officer's
    consent and under the profile's conditions (NB 6-98(1); GL 21(B))."""
    if not options.home:
        raise Refused.because(_("Where"), options.home_reason, options.home_citation, field="place")
    animal = quarantine.animal
    address = c.home_address.strip() or (animal.owner.address if animal else "")
    missing = []
    if not c.consent_by_name.strip():
        missing.append(("consent_by_name", _("Name the officer who consents.")))
    if c.consent_on is None:
        missing.append(("consent_on", _("Enter the date of the consent.")))
    if not address:
        missing.append(("home_address", _("Give the place of confinement.")))
    if missing:
        raise Refused(
            [
                Refused.because(_("Consent"), msg, options.home_citation, field=f).checks[0]
                for f, msg in missing
            ]
        )
    refuse_if_future(c.consent_on, _("Consent"), field="consent_on", today=today)
    quarantine.consent_by_name = c.consent_by_name.strip()
    quarantine.consent_on = c.consent_on
    quarantine.home_address = address[:300]
    quarantine.conditions = options.conditions


def _at_facility(quarantine: Quarantine, c: Confinement, gate, *, actor, now) -> None:
    """At the facility (NB 6-98(2); GL 21(A)): an impound case held to the same end."""
    refuse_if_future(
        c.enclosure_approved_on,
        _("Enclosure approved on"),
        field="enclosure_approved_on",
        today=timezone.localdate(now),
    )
    animal = quarantine.animal
    quarantine.enclosure_approved_by = c.enclosure_approved_by.strip()
    quarantine.enclosure_approved_on = c.enclosure_approved_on
    quarantine.home_address = (animal.owner.address if animal else "")[:300]
    quarantine.impound_case = facility_intake(
        quarantine,
        c.pound,
        actor,
        now,
        seized_where=c.home_address.strip() or quarantine.bite_report.bitten_where,
        start=quarantine.starts_on,
        gate=gate,
    )


def _confine_bite(bite: BiteReport, quarantine: Quarantine, period: Period, *, actor, now):
    """The report's decision is the confinement (the first quarantine ordered for it)."""
    if not bite.may("confine"):
        return
    bite.decision = BiteDecision.CONFINE
    bite.decided_at, bite.decided_by = now, actor
    bite.decision_citation = period.decision_citation[:200]
    bite.apply(
        "confine",
        actor=actor,
        at=now,
        summary=_("Confinement ordered: %(q)s") % {"q": quarantine.number},
        citation=quarantine.end_citation,
        data={"quarantine": quarantine.pk},
        fields=["decision", "decided_at", "decided_by", "decision_citation"],
    )


@refusing()
@transaction.atomic
def quarantine_order(
    bite: BiteReport, *, actor, now: datetime | None = None, **confinement
) -> Quarantine:
    """Order the confinement of the biting animal (NB 6-98; GL 21(A), (B)); issue C41.
    ``confinement``: the fields of ``Confinement``."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    c = Confinement(**confinement)
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = locked(BiteReport, bite.pk)
    _refuse_unless_orderable(bite)
    options = confinement_options(bite, on=today)
    if options.other_species:
        raise Refused.because(
            _("Species"), options.other_species, options.other_species_citation, field="place"
        )
    period = _period(bite)
    quarantine = _new_quarantine(bite, options, period, c.place, actor=actor, now=now)
    gate = release_gate(bite.jurisdiction, on=today)
    if c.place == QuarantinePlace.HOME:
        _at_home(quarantine, c, options, today)
    elif c.place == QuarantinePlace.FACILITY:
        _at_facility(quarantine, c, gate, actor=actor, now=now)
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
            "end": date_format(quarantine.ends_on),
            "cite": quarantine.end_citation,
        },
        data={"bite": bite.pk, "place": c.place, "ends_on": str(quarantine.ends_on)},
    )
    _confine_bite(bite, quarantine, period, actor=actor, now=now)
    quarantine.order = issue_order(quarantine, options, gate, actor=actor, now=now)
    quarantine.save(update_fields=["order"])
    return quarantine


def _order_context(quarantine, options, gate, *, actor) -> dict:
    """What the order (C41) says, frozen at issue."""
    animal = quarantine.animal
    owner = animal.owner if animal else None
    impound = quarantine.impound_case
    return {
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


def issue_order(quarantine, options, gate, *, actor, now):
    from notices.services import document_issue

    animal = quarantine.animal
    owner = animal.owner if animal else None
    return document_issue(
        kind=ORDER_KIND,
        template="rabies/quarantine_order.html",
        context=_order_context(quarantine, options, gate, actor=actor),
        jurisdiction=quarantine.jurisdiction,
        actor=actor,
        title=_("Quarantine order"),
        number=quarantine.number,
        subject=quarantine,
        owner_user=getattr(owner, "user", None) if owner else None,
        now=now,
    )
