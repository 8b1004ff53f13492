"""Registry use cases: owners, premises, animals, ownership and rabies vaccinations.

Each change goes through one function here. It checks the input against the date it is
given (``on``), writes the rows, stamps simple-history's user and change reason, and
records a named ``Event`` (rules.md REC-18: who changed what, when, on which basis).
Views and the demo loader call these; nothing else writes registry rows one by one.
"""

import re
from datetime import date, datetime

from dateutil.relativedelta import relativedelta
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.models import Animal, AnimalStatus, Owner, Ownership, Premises, RabiesVaccination
from licensing.services.species import species_check
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation

OWNER_FIELDS = frozenset(
    {
        "kind",
        "first_name",
        "last_name",
        "organization_name",
        "address_line",
        "unit",
        "city",
        "state",
        "postal_code",
        "phone",
        "email",
        "is_resident",
        "user",
    }
)
ADDRESS_FIELDS = ("address_line", "unit", "city", "state", "postal_code")
ANIMAL_FIELDS = frozenset(
    {
        "species",
        "kind",
        "name",
        "breed",
        "color",
        "sex",
        "sterilized",
        "date_of_birth",
        "dob_is_estimate",
        "microchip",
        "distinguishing_traits",
        "photo",
        "acquired_on",
        "is_service_animal",
        "is_law_enforcement",
    }
)
VACCINATION_FIELDS = frozenset(
    {
        "vaccinated_on",
        "duration_years",
        "next_due_on",
        "manufacturer",
        "product",
        "lot_number",
        "lot_expires_on",
        "rabies_tag_number",
        "veterinarian_name",
        "veterinarian_license",
        "clinic_name",
        "clinic_address",
        "certificate",
    }
)
# ISO 11784 chips are 15 digits; the older AVID/Home Again chips still read in the field
# are 9 or 10. Letters or other lengths are a misread (shape, not an ordinance value).
MICROCHIP_LENGTHS = (9, 10, 15)


def _refused(errors: dict, section: str = "") -> Refused:
    """Refused, each reason next to its field (``{"died_on": "..."}``); input-shape
    checks have no section, the veterinarian's (RAB-05) and due date's (RAB-03) do."""
    return Refused(
        [
            Check(str(ANIMAL_LABELS.get(name, name)), "fail", str(message), section, field=name)
            for name, message in errors.items()
        ]
    )


ANIMAL_LABELS = {
    "date_of_birth": _l("Date of birth"),
    "acquired_on": _l("Date acquired"),
    "died_on": _l("Date of death"),
    "microchip": _l("Microchip"),
    "vaccinated_on": _l("Vaccination date"),
    "next_due_on": _l("Next due"),
    "veterinarian_license": _l("Veterinarian"),
}


def clean_microchip(value: str) -> str:
    """Spaces and dashes dropped; digits only, of a length real chips have.

    A ValidationError: the form's field cleaning uses this too; services call
    ``_microchip``, which refuses instead."""
    digits = re.sub(r"[\s-]", "", value or "")
    if not digits:
        return ""
    if not digits.isdigit() or len(digits) not in MICROCHIP_LENGTHS:
        raise ValidationError(
            _(
                "A microchip number has 9, 10 or 15 digits and nothing else (you entered "
                "“%(value)s”)."
            )
            % {"value": value},
            code="microchip",
        )
    return digits


def _microchip(value: str) -> str:
    try:
        return clean_microchip(value)
    except ValidationError as exc:
        raise _refused({"microchip": " ".join(exc.messages)}) from exc


def _check_fields(fields: dict, allowed: frozenset) -> None:
    unknown = set(fields) - allowed
    if unknown:
        raise TypeError(f"unexpected fields: {sorted(unknown)}")


def _check_serves(actor, jurisdiction) -> None:
    # Defence in depth: the views already scope lookups, but a service must not let a
    # clerk of one city write into another's registry. No actor: the city's own system
    # (a clinic's certificate matched, the demo data).
    if actor is not None:
        refuse_unless_serves(actor, jurisdiction)


def _stamp(obj, actor, reason: str) -> None:
    """simple-history reads these when the row is saved."""
    obj._history_user = actor
    obj._change_reason = reason


def _json(value):
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, File):  # an upload or a stored file: its name is what changed
        return value.name or ""
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def premises_address(address_line: str, unit: str = "") -> tuple[str, str]:
    """An address as a premises row keeps it (runs of spaces made one); premises are one
    per address and unit, letter case aside (the unique constraint)."""
    return " ".join(address_line.split()), " ".join((unit or "").split())


def premises_for_address(
    *,
    jurisdiction: Jurisdiction,
    address_line: str,
    unit: str = "",
    city: str,
    state: str = "MN",
    postal_code: str,
) -> Premises:
    """The Premises row for an address in a city, created the first time it is seen.

    Premises are the household unit the animal limits count (KEN-01), so two owners at one
    address share one row; the unique constraint settles two clerks creating it at once.
    """
    address_line, unit = premises_address(address_line, unit)
    lookup = {
        "jurisdiction": jurisdiction,
        "address_line__iexact": address_line,
        "unit__iexact": unit,
    }
    found = Premises.objects.filter(**lookup).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Premises.objects.create(
                jurisdiction=jurisdiction,
                address_line=address_line,
                unit=unit,
                city=city,
                state=state,
                postal_code=postal_code,
            )
    except IntegrityError:
        return Premises.objects.get(**lookup)


def owner_premises(owner: Owner) -> Premises:
    return premises_for_address(
        jurisdiction=owner.jurisdiction, **{f: getattr(owner, f) for f in ADDRESS_FIELDS}
    )


@refusing()
@transaction.atomic
def owner_create(*, jurisdiction: Jurisdiction, actor, now=None, **fields) -> Owner:
    _check_fields(fields, OWNER_FIELDS)
    _check_serves(actor, jurisdiction)
    owner = Owner(jurisdiction=jurisdiction, **fields)
    _stamp(owner, actor, "Registered at the counter")
    owner.save()
    premises = owner_premises(owner)
    Event.record(
        "licensing.owner.created",
        owner,
        actor=actor,
        at=now,
        summary=f"Owner {owner.name} registered at {owner.address}",
        data={"premises": premises.pk},
    )
    return owner


@refusing()
@transaction.atomic
def owner_update(*, owner: Owner, actor, now=None, **fields) -> Owner:
    """Change an owner's details. A new address moves the owner's living animals that
    were kept at the old premises to the premises of the new address."""
    _check_fields(fields, OWNER_FIELDS)
    _check_serves(actor, owner.jurisdiction)
    owner = Owner.objects.select_for_update().get(pk=owner.pk)
    before = {f: getattr(owner, f) for f in fields}
    changes = {f: [_json(before[f]), _json(v)] for f, v in fields.items() if before[f] != v}
    if not changes:
        return owner
    old_premises = owner_premises(owner)
    for name, value in fields.items():
        setattr(owner, name, value)
    _stamp(owner, actor, "Owner details changed")
    owner.save()
    moved = 0
    if any(f in changes for f in ADDRESS_FIELDS):
        moved = _animals_follow(owner, old_premises, owner_premises(owner), actor)
    Event.record(
        "licensing.owner.updated",
        owner,
        actor=actor,
        at=now,
        summary=f"Owner {owner.name} changed: {', '.join(sorted(changes))}",
        data={"changes": changes, "animals_moved": moved},
    )
    return owner


def _animals_follow(owner, old_premises, new_premises, actor) -> int:
    if old_premises.pk == new_premises.pk:
        return 0
    animals = list(owner.animals.filter(premises=old_premises, status=AnimalStatus.ALIVE))
    for animal in animals:
        animal.premises = new_premises
        _stamp(animal, actor, "Owner's address changed")
        animal.save(update_fields=["premises"])
    return len(animals)


def _check_animal_dates(fields: dict, on: date) -> None:
    born, acquired = fields.get("date_of_birth"), fields.get("acquired_on")
    for name, value in (("date_of_birth", born), ("acquired_on", acquired)):
        refuse_if_future(value, ANIMAL_LABELS[name], field=name, today=on)
    if acquired and born and acquired < born:
        raise _refused({"acquired_on": _("The date acquired cannot be before the date of birth.")})


@refusing()
@transaction.atomic
def animal_register(
    *, owner: Owner, actor, on: date, premises: Premises | None = None, **fields
) -> Animal:
    """A new animal for an owner, kept at the owner's premises unless told otherwise;
    the first Ownership row starts on the date acquired (or today)."""
    _check_fields(fields, ANIMAL_FIELDS)
    _check_serves(actor, owner.jurisdiction)
    fields["microchip"] = _microchip(fields.get("microchip", ""))
    _check_animal_dates(fields, on)
    premises = premises or owner_premises(owner)
    fields["kind"], found = species_check(  # Glencoe 701 Subd. 1(R), 31(B); WLD-01..03
        owner=owner,
        premises=premises,
        species=fields.get("species", ""),
        kind=fields.get("kind", ""),
        sterilized=fields.get("sterilized", False),
        on=on,
    )
    animal = Animal(jurisdiction_id=owner.jurisdiction_id, owner=owner, premises=premises, **fields)
    _stamp(animal, actor, "Registered")
    animal.save()
    ownership = Ownership(
        animal=animal,
        owner=owner,
        premises=premises,
        started_on=animal.acquired_on or on,
        note=_("First registration"),
    )
    _stamp(ownership, actor, "Registered")
    ownership.save()
    Event.record(
        "licensing.animal.registered",
        animal,
        actor=actor,
        summary=f"{animal} registered to {owner.name}",
        data={
            "owner": owner.pk,
            "premises": premises.pk,
            "on": on.isoformat(),
            **({"class": found.category, "flag": found.flag} if found else {}),
        },
    )
    return animal


@refusing()
@transaction.atomic
def animal_update(*, animal: Animal, actor, on: date, **fields) -> Animal:
    _check_fields(fields, ANIMAL_FIELDS)
    _check_serves(actor, animal.jurisdiction)
    if "microchip" in fields:
        fields["microchip"] = _microchip(fields["microchip"])
    _check_animal_dates(fields, on)
    animal = Animal.objects.select_for_update().get(pk=animal.pk)
    if {"species", "kind"} & set(fields):  # Glencoe 701 Subd. 1(R), 31(B); WLD-01..03
        fields["kind"], _found = species_check(
            owner=animal.owner,
            premises=animal.premises,
            species=fields.get("species", animal.species),
            kind=fields.get("kind", animal.kind),
            sterilized=fields.get("sterilized", animal.sterilized),
            on=on,
            animal=animal,
        )
    changes = {
        f: [_json(getattr(animal, f)), _json(v)]
        for f, v in fields.items()
        if getattr(animal, f) != v
    }
    if not changes:
        return animal
    for name, value in fields.items():
        setattr(animal, name, value)
    _stamp(animal, actor, "Animal details changed")
    animal.save()
    Event.record(
        "licensing.animal.updated",
        animal,
        actor=actor,
        summary=f"{animal} changed: {', '.join(sorted(changes))}",
        data={"changes": changes},
    )
    return animal


@refusing()
@transaction.atomic
def animal_mark_deceased(
    *, animal: Animal, actor, on: date, died_on: date | None = None, note: str = ""
) -> Animal:
    """Alive -> deceased (``Animal.mark_deceased``). Its licenses stay as they are until
    the clerk closes them; the ownership row stays (who owned it when it died)."""
    _check_serves(actor, animal.jurisdiction)
    died_on = died_on or on
    refuse_if_future(died_on, ANIMAL_LABELS["died_on"], field="died_on", today=on)
    animal = Animal.objects.select_for_update().get(pk=animal.pk)
    animal.mark_deceased(actor=actor, on=died_on, note=note)
    return animal


def _vaccination_dates(fields: dict, on: date, jurisdiction) -> None:
    """Shape of the certificate's dates (RAB-03: next due = date given + the vaccine's
    labelled duration when the certificate leaves it blank)."""
    given = fields["vaccinated_on"]
    refuse_if_future(given, ANIMAL_LABELS["vaccinated_on"], field="vaccinated_on", today=on)
    if not fields.get("next_due_on"):
        fields["next_due_on"] = given + relativedelta(years=int(fields["duration_years"]))
    elif fields["next_due_on"] <= given:
        raise _refused(
            {
                "next_due_on": _(
                    "The next due date must be after the vaccination date (%(given)s)."
                )
                % {"given": date_format(given)}
            },
            rule_citation(jurisdiction, "RAB-03"),
        )


@refusing()
@transaction.atomic
def vaccination_record(
    *, animal: Animal, actor, on: date, now: datetime | None = None, **fields
) -> RabiesVaccination:
    """Record a rabies certificate (RAB-01, RAB-05: given by a licensed veterinarian, so
    the veterinarian's name and license number are required). The Event is stamped
    ``now`` (default: the current time), so a certificate entered from history (demo data,
    paper records) reads at the time it was recorded."""
    _check_fields(fields, VACCINATION_FIELDS)
    _check_serves(actor, animal.jurisdiction)
    fields.setdefault("duration_years", RabiesVaccination.Duration.ONE_YEAR)
    _vaccination_dates(fields, on, animal.jurisdiction)
    if not fields.get("veterinarian_name") or not fields.get("veterinarian_license"):
        raise _refused(
            {
                "veterinarian_license": _(
                    "A rabies vaccination must be given by a licensed veterinarian: enter the "
                    "veterinarian's name and license number."
                )
            },
            rule_citation(animal.jurisdiction, "RAB-05"),
        )
    vaccination = RabiesVaccination(animal=animal, recorded_by=actor, **fields)
    _stamp(vaccination, actor, "Certificate recorded")
    if now is not None:
        vaccination._history_date = now  # the history row reads at the same time
    vaccination.save()
    Event.record(
        "licensing.vaccination.recorded",
        animal,
        actor=actor,
        at=now or timezone.now(),
        summary=f"Rabies vaccination of {fields['vaccinated_on']:%Y-%m-%d} recorded for {animal}",
        data={
            "vaccination": vaccination.pk,
            "next_due_on": vaccination.next_due_on.isoformat(),
            "certificate": bool(vaccination.certificate),
        },
    )
    return vaccination


def today() -> date:
    """The edge default for ``on``: the local date, read once per request."""
    return timezone.localdate()
