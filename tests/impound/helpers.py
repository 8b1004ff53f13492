"""Cases at a given moment, for the after-the-hold tests."""

from datetime import datetime
from zoneinfo import ZoneInfo

import time_machine

from impound.services.intake import case_intake

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
