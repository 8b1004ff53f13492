"""Intake: one service takes the ground, the hold rule, its start and the gates.

Rules: IMP-01 (grounds, per city, each cited), IMP-03 (time of placement), IMP-04 and
Minn. Stat. 346.47 subd. 2 (the hold), IMP-06 (who brought an animal three months or
older), IMP-08 (court-order grounds). Later apps (dangerous dogs, rabies) call
``case_intake`` with their own ground, hold key (``dd_reclaim_days``,
``bite_confinement_days``) and gates; impound imports none of them.
"""

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import (
    CaseGate,
    CaseStatus,
    GateKind,
    ImpoundCase,
    Pound,
    Sterilized,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from kernel.numbers import year_number
from licensing.models import Animal
from licensing.models.registry import Species
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleNotSet, rule_in_force, rules_in_force

from .holds import HoldEnd, hold_end
from .owner_alerts import owner_alert_queue

DEFAULT_HOLD_KEY = "impound_hold_business_days"

# What an officer describes at intake (Subd. 13 item 1, C12, C13).
DESCRIPTION_FIELDS = frozenset(
    {
        "species",
        "breed",
        "sex",
        "sterilized",
        "color",
        "approximate_age_months",
        "distinguishing_traits",
        "photo",
        "tag_present",
        "tag_text",
        "microchip",
        "no_research",
        "no_research_source",
    }
)


@dataclass(frozen=True)
class Ground:
    """A ground for impounding in a city's ordinance, as the intake screen offers it."""

    code: str
    label: str
    citation: str
    cats: bool
    court_order: bool
    procedure: bool = False

    def __str__(self):
        return f"{self.label} ({self.citation})"


def impound_grounds(
    jurisdiction: Jurisdiction, *, on: date, procedures: bool = False
) -> list[Ground]:
    """The city's grounds, in the profile's order, each with its section (IMP-01).

    ``procedures`` adds the grounds only a proceeding opens (``impound_procedure_grounds``:
    a dangerous dog seized under Subd. 15(K)), which the intake screen does not offer."""
    codes = list(rule_in_force(jurisdiction, "impound_grounds", on=on).value)
    opened_by_procedure = _codes(jurisdiction, "impound_procedure_grounds", on)
    if procedures:
        codes += [code for code in sorted(opened_by_procedure) if code not in codes]
    cats = _codes(jurisdiction, "impound_cat_grounds", on)
    court = _codes(jurisdiction, "impound_court_order_grounds", on)
    labels = rules_in_force(jurisdiction, [f"impound_ground_{code}" for code in codes], on=on)
    return [
        Ground(
            code,
            rule.value,
            rule.citation,
            code in cats,
            code in court,
            code in opened_by_procedure,
        )
        for code, rule in zip(codes, labels.values(), strict=True)
    ]


def _codes(jurisdiction, key, on) -> frozenset[str]:
    rule = rule_in_force(jurisdiction, key, on=on, optional=True)
    return frozenset(rule.value) if rule else frozenset()


def ground_for(jurisdiction: Jurisdiction, code: str, *, on: date) -> Ground:
    for ground in impound_grounds(jurisdiction, on=on, procedures=True):
        if ground.code == code:
            return ground
    raise Refused.because(
        _("Ground"),
        _("%(city)s's ordinance has no such ground for impounding.") % {"city": jurisdiction},
        field="ground",
    )


def check_species(jurisdiction: Jurisdiction, ground: Ground, species: str, *, on: date):
    """A cat only on a ground that covers cats; else the city's cat rule, if it set one.

    North Branch Secs. 6-68 to 6-75 speak of dogs only (Appendix D N15): a cat is refused
    with the blank ``cat_impound_rules`` message until the city enters its rules, except
    a rabies confinement (Sec. 6-96(6), 6-98).
    """
    if species != Species.CAT or ground.cats:
        return
    try:
        rule = rule_in_force(jurisdiction, "cat_impound_rules", on=on, optional=True)
    except RuleNotSet as exc:
        raise Refused.because(_("Species"), str(exc), exc.citation, field="species") from exc
    if rule is None:
        raise Refused.because(
            _("Species"),
            _("%(ground)s applies to dogs only.") % {"ground": ground.label},
            ground.citation,
            field="species",
        )


def party_age_months(jurisdiction: Jurisdiction, *, on: date):
    """The age from which the register names who brought the animal, or None (IMP-06)."""
    return rule_in_force(jurisdiction, "impound_record_party_age_months", on=on, optional=True)


def _check_party(jurisdiction, fields, brought_by_name, brought_by_address, on):
    rule = party_age_months(jurisdiction, on=on)
    age = fields.get("approximate_age_months")
    if rule is None or age is None or age < rule.value:
        return
    missing = {}
    if not brought_by_name.strip():
        missing["brought_by_name"] = _("Name the person the animal was received from.")
    if not brought_by_address.strip():
        missing["brought_by_address"] = _("Give that person's address.")
    if missing:
        raise Refused(
            [
                Refused.because(
                    _("Received from"),
                    _("An animal %(age)s or older: %(msg)s") % {"age": rule.display(), "msg": msg},
                    rule.citation,
                    field=field,
                ).reasons[0]
                for field, msg in missing.items()
            ]
        )


def _check_pound(pound: Pound, jurisdiction, on: date):
    serves = pound.jurisdictions.filter(pk=jurisdiction.pk).exists()
    ended = pound.designated_until is not None and pound.designated_until < on
    if not serves or ended or pound.designated_from > on:
        raise Refused.because(
            _("Pound"),
            _("%(pound)s is not designated for %(city)s on %(date)s.")
            % {"pound": pound, "city": jurisdiction, "date": on},
            field="pound",
        )


@dataclass(frozen=True)
class Intake:
    """What the officer records when an animal is placed in the pound (IMP-01, IMP-03):
    the ground, when and where it was seized and placed, who brought it, the kennel, the
    registry's animal when the owner is known, the hold to count (``hold_key`` from
    ``hold_start``, the placement's day by default), gates a caller adds (kind, label,
    citation, clearable) and the animal's description (``DESCRIPTION_FIELDS``)."""

    ground: str
    placed_at: datetime
    seized_on: date
    seized_where: str
    found_area: str = ""
    brought_by_name: str = ""
    brought_by_address: str = ""
    kennel: str = ""
    animal: Animal | None = None
    hold_key: str = DEFAULT_HOLD_KEY
    hold_start: date | None = None
    gates: tuple[tuple[str, str, str, bool], ...] = ()
    description: dict = field(default_factory=dict)

    @classmethod
    def of(cls, **fields) -> "Intake":
        """From keywords: the intake's own and the description's (a caller's form)."""
        own = {f: fields.pop(f) for f in INTAKE_FIELDS if f in fields}
        unknown = set(fields) - DESCRIPTION_FIELDS
        if unknown:
            raise TypeError(f"Not intake fields: {sorted(unknown)}")
        return cls(**own, description=fields)


INTAKE_FIELDS = frozenset(f.name for f in dataclass_fields(Intake)) - {"description"}


@refusing()
@transaction.atomic
def case_intake(
    *,
    jurisdiction: Jurisdiction,
    pound: Pound,
    actor,
    intake: Intake | None = None,
    **fields,
) -> ImpoundCase:
    """Record an animal placed in the pound and store its hold end (IMP-01, -03, -04).

    ``intake``: what the officer recorded (or its fields as keywords). A court-order
    ground opens its own gate (IMP-08)."""
    intake = intake or Intake.of(**fields)
    refuse_unless_serves(actor, jurisdiction)
    now = timezone.now()
    placed_on = timezone.localtime(intake.placed_at).date()
    chosen, description = _checked(jurisdiction, pound, intake, placed_on, now)
    start = intake.hold_start or placed_on
    hold: HoldEnd = hold_end(jurisdiction, pound, key=intake.hold_key, start=start)
    case = ImpoundCase.objects.create(
        jurisdiction=jurisdiction,
        number=year_number(jurisdiction, "impound", placed_on.year),
        pound=pound,
        status=CaseStatus.HELD,
        status_changed_at=now,
        officer=actor,
        hold_starts_on=start,
        **_placement(intake, chosen, hold, now),
        **_describe(description, intake.animal),
    )
    _open_gates(case, chosen, intake.gates, actor=actor, now=now)
    _record_intake(case, chosen, hold, actor=actor, now=now)
    owner_alert_queue(case)  # a registered owner hears after commit (owner_alerts)
    return case


def _checked(jurisdiction, pound, intake: Intake, placed_on: date, now) -> tuple:
    """The ground chosen and the description, once every check of the intake passed."""
    _check_placement(intake.placed_at, intake.seized_on, now=now)
    animal = intake.animal
    if animal is not None and animal.jurisdiction_id != jurisdiction.pk:
        raise Refused.because(_("Animal"), _("That animal is registered in another city."))
    chosen = ground_for(jurisdiction, intake.ground, on=placed_on)
    description = dict(intake.description)
    description["species"] = description.get("species") or (
        animal.species if animal else Species.DOG
    )
    check_species(jurisdiction, chosen, description["species"], on=placed_on)
    _check_party(
        jurisdiction, description, intake.brought_by_name, intake.brought_by_address, placed_on
    )
    _check_pound(pound, jurisdiction, placed_on)
    return chosen, description


def _placement(intake: Intake, chosen: Ground, hold: HoldEnd, now) -> dict:
    """The case's columns for its ground, its seizure and placement, and its hold."""
    return {
        "kennel": intake.kennel,
        "ground": chosen.code,
        "ground_label": chosen.label,
        "ground_citation": chosen.citation,
        "placed_at": intake.placed_at,
        "seized_on": intake.seized_on,
        "seized_where": intake.seized_where,
        "found_area": intake.found_area.strip(),
        "brought_by_name": intake.brought_by_name,
        "brought_by_address": intake.brought_by_address,
        "animal": intake.animal,
        "owner_identified_at": now if intake.animal else None,
        "hold_key": intake.hold_key,
        "hold_ends_on": hold.ends_on,
        "hold_citation": hold.citation,
        "hold_basis": hold.basis,
    }


def _check_placement(placed_at: datetime, seized_on: date, *, now: datetime) -> None:
    """IMP-03: the time of placement has happened, and the seizure came before it."""
    refuse_if_future(
        placed_at,
        _("Placed at"),
        message=_("The time of placement cannot be in the future."),
        field="placed_at",
        now=now,
    )
    if seized_on > timezone.localtime(placed_at).date():
        raise Refused.because(
            _("Date seized"),
            _("The date seized cannot be after the animal was placed in the pound."),
            field="seized_on",
        )


def _open_gates(case, chosen: Ground, gates, *, actor, now) -> None:
    """The caller's gates, and the court's authorization a court-order ground needs
    (IMP-08)."""
    opened = list(gates)
    if chosen.court_order:
        opened.append(
            (
                GateKind.COURT_AUTHORIZATION,
                _("A court having jurisdiction authorizes redemption"),
                chosen.citation,
                True,
            )
        )
    CaseGate.objects.bulk_create(
        CaseGate(
            case=case,
            kind=kind,
            label=label,
            citation=citation,
            clearable=clearable,
            opened_at=now,
            opened_by=actor,
        )
        for kind, label, citation, clearable in opened
    )


def _record_intake(case, chosen: Ground, hold: HoldEnd, *, actor, now) -> None:
    Event.record(
        "impound.case.taken_in",
        case,
        actor=actor,
        at=now,
        summary=_("%(n)s taken in: %(ground)s; hold ends %(end)s")
        % {"n": case.number, "ground": chosen.label, "end": date_format(hold.ends_on)},
        data={
            "ground": chosen.code,
            "hold_key": case.hold_key,
            "hold_ends_on": str(hold.ends_on),
            "hold_citation": hold.citation,
            "animal": case.animal_id,
        },
    )


def _describe(description: dict, animal: Animal | None) -> dict:
    """The intake description; a known animal's registry entry fills what is left blank."""
    fields = {k: v for k, v in description.items() if v is not None}
    if animal is not None:
        fields.setdefault("breed", animal.breed)
        fields.setdefault("sex", animal.sex)
        fields.setdefault("color", animal.color)
        fields.setdefault("microchip", animal.microchip)
        fields.setdefault("sterilized", Sterilized.YES if animal.sterilized else Sterilized.UNKNOWN)
        age = animal.age_in_months(timezone.localdate())
        if age is not None:
            fields.setdefault("approximate_age_months", age)
    fields.setdefault("approximate_age_months", 0)
    fields.setdefault("color", "")
    return fields


@refusing()
@transaction.atomic
def case_identify_owner(*, case: ImpoundCase, animal: Animal, actor) -> ImpoundCase:
    """The owner is known: link the registry's animal (registry_search at the counter)."""
    refuse_unless_serves(actor, case.jurisdiction)
    if animal.jurisdiction_id != case.jurisdiction_id:
        raise Refused.because(_("Animal"), _("That animal is registered in another city."))
    if not case.is_open:
        raise Refused.because(
            _("Impound case"),
            _("Case %(n)s is closed.") % {"n": case.number},
        )
    if animal.species != case.species:
        raise Refused.because(
            _("Animal"),
            _("The case describes a %(a)s; that registry entry is a %(b)s.")
            % {"a": case.get_species_display().lower(), "b": animal.get_species_display().lower()},
            field="animal",
        )
    previous = case.animal_id
    case.animal = animal
    case.owner_identified_at = timezone.now()
    case.save(update_fields=["animal", "owner_identified_at"])
    Event.record(
        "impound.case.owner_identified",
        case,
        actor=actor,
        summary=_("Owner identified: %(owner)s (%(animal)s)")
        % {"owner": animal.owner.name, "animal": animal},
        data={"animal": animal.pk, "owner": animal.owner_id, "previous_animal": previous},
    )
    owner_alert_queue(case)  # the owner hears after commit (owner_alerts)
    return case
