"""Recording a bite as reported (C39) or a veterinarian's rabies-suspect report (C40).

The report is numbered ``BR-<year>-<n>`` and stores the vaccination on file at the bite
(licensing's ``vaccination_status``), the owner's reporting deadline where the city has
one (NB Sec. 6-96(2): ``owner_bite_report_hours``, stored with its section, never
recomputed) and whom the report goes to. A late owner's report, and an animal bitten by a
species the ordinance deems rabid, are put before a person.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from licensing.services.vaccination import vaccination_status
from ordinance.calendar import due_datetime
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import (
    BiteReport,
    BiterKind,
    BiteStatus,
    ReporterKind,
    SalivaExposure,
    VictimKind,
)

from ..common import city_rule, has_exposure_rules

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


@dataclass
class BiteFacts:
    """A bite as reported: the report form's cleaned data. ``animal`` and
    ``victim_animal`` are an ``Animal`` or its pk; the text is taken as given (stripped)."""

    reporter_kind: str
    reported_at: datetime
    bitten_at: datetime
    biter_kind: str
    victim_kind: str = VictimKind.PERSON
    animal: Animal | int | None = None
    victim_animal: Animal | int | None = None
    skin_broken: bool | None = None
    saliva_exposure: str = SalivaExposure.UNKNOWN
    provoked: bool | None = None
    reporter_name: str = ""
    reporter_phone: str = ""
    bitten_where: str = ""
    victim_name: str = ""
    victim_address: str = ""
    victim_phone: str = ""
    injuries: str = ""
    treated_by: str = ""
    provocation: str = ""
    biter_species: str = ""
    biter_description: str = ""
    biter_owner_name: str = ""
    biter_owner_address: str = ""
    diagnosis: str = ""

    def __post_init__(self):
        for name in TEXT_FIELDS:
            setattr(self, name, (getattr(self, name) or "").strip())

    def text(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in TEXT_FIELDS}


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


def _not_registered(jurisdiction, field, label) -> Refused:
    return Refused.because(
        label,
        _("No animal with this ID is registered in %(city)s.") % {"city": jurisdiction},
        field=field,
    )


def _animal_in(jurisdiction, animal, field, label) -> Animal | None:
    """The animal (or the animal of this pk) registered in the city; None for none."""
    if isinstance(animal, Animal):
        if animal.jurisdiction_id != jurisdiction.pk:
            raise _not_registered(jurisdiction, field, label)
        return animal
    if animal in (None, ""):
        return None
    found = (
        Animal.objects.select_related("owner", "jurisdiction")
        .prefetch_related("vaccinations")
        .filter(pk=animal, jurisdiction=jurisdiction)
        .first()
    )
    if found is None:
        raise _not_registered(jurisdiction, field, label)
    return found


def _check_times_and_names(jurisdiction, facts: BiteFacts, now: datetime) -> None:
    refuse_if_future(
        facts.bitten_at,
        _("Date and time of the bite"),
        message=_("The bite cannot be in the future."),
        field="bitten_at",
        now=now,
    )
    refuse_if_future(
        facts.reported_at,
        _("Reported at"),
        message=_("The report cannot be in the future."),
        field="reported_at",
        now=now,
    )
    if facts.reported_at < facts.bitten_at:
        raise Refused.because(
            _("Reported at"), _("The report cannot come before the bite."), field="reported_at"
        )
    if not facts.reporter_name:
        raise Refused.because(_("Reporter"), _("Give the reporter's name."), field="reporter_name")
    if not facts.bitten_where:
        raise Refused.because(_("Where"), _("Say where the bite happened."), field="bitten_where")
    if facts.reporter_kind == ReporterKind.VETERINARIAN and not facts.diagnosis:
        raise Refused.because(
            _("Diagnosis"),
            _("A veterinarian's report of a rabies suspect gives the diagnosis."),
            rule_citation(jurisdiction, "RAB-10"),
            field="diagnosis",
        )


def _biting_animal(jurisdiction, facts: BiteFacts) -> Animal | None:
    """The registered biting animal, or None for a stray or wild one (its species given)."""
    animal = _animal_in(jurisdiction, facts.animal, "animal", _("Biting animal"))
    if facts.biter_kind == BiterKind.REGISTERED:
        if animal is None:
            raise Refused.because(
                _("Biting animal"),
                _("Give the registered animal's ID, or choose a stray or wild animal."),
                field="animal",
            )
        facts.biter_species = ""
        return animal
    if not facts.biter_species:
        raise Refused.because(
            _("Species"), _("Give the species of the stray or wild animal."), field="biter_species"
        )
    return None


def _victim_animal(jurisdiction, facts: BiteFacts, animal) -> Animal | None:
    """The bitten animal, or None when a person was bitten (named)."""
    if facts.victim_kind != VictimKind.ANIMAL:
        if not facts.victim_name:
            raise Refused.because(
                _("Victim"), _("Give the name of the person bitten."), field="victim_name"
            )
        return None
    victim = _animal_in(jurisdiction, facts.victim_animal, "victim_animal", _("Victim"))
    if victim is None:
        raise Refused.because(_("Victim"), _("Give the bitten animal's ID."), field="victim_animal")
    if animal is not None and victim.pk == animal.pk:
        raise Refused.because(
            _("Victim"), _("The bitten animal cannot be the biting animal."), field="victim_animal"
        )
    return victim


def _recipient(jurisdiction, reporter_kind, on) -> str:
    keys = ["bite_report_recipient"]
    if reporter_kind == ReporterKind.VETERINARIAN:
        keys.insert(0, "vet_suspect_report_recipient")
    for key in keys:
        rule = city_rule(jurisdiction, key, on=on)
        if rule is not None:
            return str(rule.value)
    return ""


def _new_report(jurisdiction, facts: BiteFacts, animal, victim, actor, now) -> BiteReport:
    bite_day = _local_date(facts.bitten_at)
    bite = BiteReport(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, "rabies-BR", bite_day.year, "BR"),
        status=BiteStatus.OPEN,
        status_changed_at=now,
        reporter_kind=facts.reporter_kind,
        reported_at=facts.reported_at,
        report_recipient=_recipient(jurisdiction, facts.reporter_kind, bite_day),
        bitten_at=facts.bitten_at,
        victim_kind=facts.victim_kind,
        victim_animal=victim,
        skin_broken=facts.skin_broken,
        saliva_exposure=facts.saliva_exposure,
        provoked=facts.provoked,
        biter_kind=facts.biter_kind,
        animal=animal,
        officer=actor,
        **facts.text(),
    )
    if animal is not None:
        status = vaccination_status(animal, on=bite_day)
        bite.vaccination = status.vaccination
        bite.vaccination_state = status.state
        bite.vaccination_summary = str(status)[:300]
    return bite


def _owner_deadline(bite: BiteReport):
    """The owner's reporting deadline, stored on the report (NB Sec. 6-96(2)); its rule."""
    bite_day = _local_date(bite.bitten_at)
    if bite.reporter_kind != ReporterKind.OWNER:
        return None
    if city_rule(bite.jurisdiction, "owner_bite_report_hours", on=bite_day) is None:
        return None
    # Counted in elapsed hours (UTC), so a change of clocks adds or takes none.
    due, rule = due_datetime(
        bite.jurisdiction, "owner_bite_report_hours", bite.bitten_at.astimezone(UTC)
    )
    bite.owner_report_due_at = due
    bite.owner_report_citation = rule.citation
    bite.owner_report_late = bite.reported_at > due
    return rule


def _flag_for_a_person(bite: BiteReport, late_rule, *, actor, now) -> None:
    """A late owner's report; an animal bitten by a species deemed rabid (an exposure)."""
    on = timezone.localdate(now)
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
            on=on,
            actor=actor,
            at=now,
        )
    bite_day = _local_date(bite.bitten_at)
    deemed = city_rule(bite.jurisdiction, "deemed_rabid_species", on=bite_day)
    if (
        deemed is not None
        and bite.victim_kind == VictimKind.ANIMAL
        and bite.biter_kind == BiterKind.WILD
        and has_exposure_rules(bite.jurisdiction, on=bite_day)
        and biter_species(bite) in [s.lower() for s in deemed.value]
    ):
        bite.flag(
            _("An animal was bitten by a %(species)s, deemed rabid: open an exposure case.")
            % {"species": bite.biter_species},
            deemed.citation,
            on=on,
            actor=actor,
            at=now,
        )


@refusing()
@transaction.atomic
def bite_report_record(
    *, jurisdiction: Jurisdiction, actor, now: datetime | None = None, **facts
) -> BiteReport:
    """Record a bite as reported (C39) or a veterinarian's rabies-suspect report (C40);
    ``facts``: the fields of ``BiteFacts``."""
    now = now or timezone.now()
    refuse_unless_serves(actor, jurisdiction)
    facts = BiteFacts(**facts)
    _check_times_and_names(jurisdiction, facts, now)
    animal = _biting_animal(jurisdiction, facts)
    victim = _victim_animal(jurisdiction, facts, animal)
    bite = _new_report(jurisdiction, facts, animal, victim, actor, now)
    late_rule = _owner_deadline(bite)
    bite.save()
    Event.record(
        "rabies.bite.reported",
        bite,
        actor=actor,
        at=now,
        summary=_("%(n)s: %(kind)s reported a bite by %(biter)s")
        % {"n": bite.number, "kind": bite.get_reporter_kind_display(), "biter": bite.biter_label()},
        data={"reporter_kind": bite.reporter_kind, "animal": animal.pk if animal else None},
    )
    _flag_for_a_person(bite, late_rule, actor=actor, now=now)
    return bite
