"""Shared test helpers for the rabies app.

``make_bite``, ``make_quarantine`` and ``make_exposure`` write a record straight to the
database in a given state, so a test of one step (an inspection, a release) does not
replay the steps before it; the services' own tests go through the services.
"""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from licensing.models import RabiesVaccination
from rabies.models import (
    BiteDecision,
    BiteReport,
    BiterKind,
    BiteStatus,
    Exposure,
    ExposurePath,
    ExposureStatus,
    Quarantine,
    QuarantinePlace,
    QuarantineStatus,
    RabidBasis,
    ReporterKind,
)
from tests.impound.helpers import owned_dog

CENTRAL = ZoneInfo("America/Chicago")


def at(day: date, hour=10, minute=0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CENTRAL)


_numbers = iter(range(1, 100000))


def vaccinate(animal, on: date, *, years=1, **fields) -> RabiesVaccination:
    values = {
        "animal": animal,
        "vaccinated_on": on,
        "duration_years": years,
        "veterinarian_name": "Dr. Vera Vet",
        "veterinarian_license": "MN-4411",
        "clinic_name": "Lakes Animal Clinic",
        "rabies_tag_number": f"R{next(_numbers):05d}",
    }
    values.update(fields)
    return RabiesVaccination.objects.create(**values)


def make_bite(city, officer, *, animal=None, status=BiteStatus.OPEN, **fields) -> BiteReport:
    """A bite of a person by a registered dog, reported by the victim, in ``status``."""
    animal = animal if animal is not None else owned_dog(city)
    today = timezone.localdate()
    bitten = at(today - timedelta(days=1), 17, 30)
    values = {
        "jurisdiction": city,
        "number": f"BR-{today.year}-T{next(_numbers):04d}",
        "status": status,
        "status_changed_at": timezone.now(),
        "reporter_kind": ReporterKind.VICTIM,
        "reporter_name": "Dana Reyes",
        "reported_at": bitten + timedelta(hours=2),
        "bitten_at": bitten,
        "bitten_where": "Sidewalk, 400 block of Main St",
        "victim_name": "Dana Reyes",
        "victim_address": "12 Elm St",
        "skin_broken": True,
        "injuries": "Puncture wounds on the left calf",
        "biter_kind": BiterKind.REGISTERED,
        "animal": animal,
        "provoked": False,
        "officer": officer,
    }
    if status == BiteStatus.QUARANTINE:
        values["decision"] = BiteDecision.CONFINE
    values.update(fields)
    return BiteReport.objects.create(**values)


def make_quarantine(
    city, officer, *, bite=None, place=QuarantinePlace.HOME, status=None, days=10, **fields
) -> Quarantine:
    """A quarantine of the bite's animal counted from the bite date, ``days`` long."""
    bite = bite if bite is not None else make_bite(city, officer, status=BiteStatus.QUARANTINE)
    start = timezone.localtime(bite.bitten_at).date()
    values = {
        "jurisdiction": city,
        "number": f"Q-{start.year}-T{next(_numbers):04d}",
        "status": status
        or (QuarantineStatus.HOME if place == QuarantinePlace.HOME else QuarantineStatus.FACILITY),
        "status_changed_at": timezone.now(),
        "bite_report": bite,
        "animal": bite.animal,
        "species": bite.animal.species if bite.animal else "dog",
        "starts_on": start,
        "start_label": "the date of the bite",
        "ends_on": start + timedelta(days=days),
        "end_citation": "North Branch Sec. 6-98"
        if city.slug == "north-branch"
        else "Glencoe 701 Subd. 21(A), (B)",
        "end_basis": f"{days} days from the date of the bite",
        "vaccinated": True,
        "place": place,
        "home_address": bite.animal.owner.address if bite.animal else "",
        "consent_by_name": "Olivia Officer",
        "consent_on": start,
        "officer": officer,
    }
    values.update(fields)
    return Quarantine.objects.create(**values)


def make_exposure(
    city, officer, *, animal=None, path=ExposurePath.VACCINATED_DOG_CAT, status=None, **fields
) -> Exposure:
    """A Glencoe dog bitten by a raccoon (deemed rabid, Subd. 1(L)) yesterday."""
    animal = animal if animal is not None else owned_dog(city)
    today = timezone.localdate()
    values = {
        "jurisdiction": city,
        "number": f"EX-{today.year}-T{next(_numbers):04d}",
        "status": status or ExposureStatus.REPORTED,
        "status_changed_at": timezone.now(),
        "animal": animal,
        "exposed_on": today - timedelta(days=1),
        "how_exposed": "Bitten on the muzzle by a raccoon in the back yard",
        "rabid_species": "raccoon",
        "rabid_basis": RabidBasis.DEEMED,
        "rabid_citation": "Glencoe 701 Subd. 1(L)",
        "vaccinated": path in (ExposurePath.VACCINATED_DOG_CAT, ExposurePath.VACCINATED_OTHER),
        "path": path,
        "path_citation": "Glencoe 701 Subd. 22(B)",
        "officer": officer,
    }
    values.update(fields)
    return Exposure.objects.create(**values)
