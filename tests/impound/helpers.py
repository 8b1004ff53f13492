"""Impound test helpers: cases at a given moment, a case with a known owner, fees the
council set, a scanned court order."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile

from impound.services.intake import case_intake
from ordinance.models import FeeScheduleEntry
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.upload_files import pdf_bytes

CHICAGO = ZoneInfo("America/Chicago")


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


def take_in(jurisdiction, pound, officer, when: datetime, ground, **extra):
    """Intake as the officer would have done it at ``when`` (the clock set there)."""
    fields = dict(
        species="dog",
        breed="Labrador mix",
        sex="female",
        color="Black",
        approximate_age_months=24,
        seized_where="Main St and 5th Ave",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St",
    )
    fields.update(extra)
    with time_machine.travel(when, tick=False):
        return case_intake(
            jurisdiction=jurisdiction,
            pound=pound,
            actor=officer,
            ground=ground,
            placed_at=when,
            seized_on=when.date(),
            **fields,
        )


PDF = pdf_bytes()
PLACED = datetime(2026, 11, 27, 14, 5, tzinfo=CHICAGO)  # a Friday; three days to Nov 30


def set_fee(city, code, amount, description=None):
    return FeeScheduleEntry.objects.create(
        jurisdiction=city,
        code=code,
        description=description or code.replace("_", " ").capitalize(),
        amount=Decimal(amount),
        effective_from=date(2026, 1, 1),
        resolution="Council Res. 2026-09",
    )


def owned_dog(city, *, resident=True, owner_fields=None, **extra):
    """A dog with its owner; ``owner_fields`` fixes the owner's (say, a name no word of a
    page could contain, where a random surname may be "Black" or "Tran")."""
    owner = OwnerFactory(jurisdiction=city, is_resident=resident, **(owner_fields or {}))
    return AnimalFactory(jurisdiction=city, owner=owner, **extra)


def impound(city, pound, officer, *, animal=None, ground=None, placed_at=PLACED):
    ground = ground or ("dog_at_large" if city.slug == "glencoe" else "unlicensed_at_large")
    return case_intake(
        jurisdiction=city,
        pound=pound,
        actor=officer,
        ground=ground,
        placed_at=placed_at,
        seized_on=placed_at.date(),
        seized_where="Hennepin Ave and 10th St",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St",
        animal=animal,
        species="dog",
        color="Black",
        approximate_age_months=24,
    )


def order_pdf(name="order.pdf"):
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")
