"""Lost-pet report helpers: a report filed at a moment, an intake that
runs its after-commit matching, the personas' e-mail addresses."""

from datetime import date, datetime

import time_machine

from impound.services.lost import lost_report_file
from tests.impound.helpers import at, take_in

NB_GROUND = "unlicensed_at_large"
GL_GROUND = "dog_at_large"
# Someone else's personal data, which no e-mail to the resident may carry.
FINDER_NAME, FINDER_ADDRESS = "Pat Finder", "12 Elm St"


def report(city, reporter, *, when: datetime | None = None, **extra):
    """A resident's report of a black female Labrador lost on Main Street."""
    when = when or at(2026, 11, 30, 9)
    fields = dict(
        species="dog",
        breed="Labrador Retriever",
        color="Black",
        sex="female",
        approximate_age_months=24,
        name="Juno",
        lost_on=date(2026, 11, 28),
        lost_where="Main St near 5th Ave",
        contact_preference="email",
        contact_phone="651-555-0123",
    )
    fields.update(extra)
    with time_machine.travel(when, tick=False):
        return lost_report_file(reporter=reporter, jurisdiction=city, now=when, **fields)


def intake(city, pound, officer, when, capture, **extra):
    """An intake whose after-commit matching and e-mails run (``capture`` is pytest-
    django's django_capture_on_commit_callbacks)."""
    ground = GL_GROUND if city.slug == "glencoe" else NB_GROUND
    with time_machine.travel(when, tick=False), capture(execute=True):
        return take_in(city, pound, officer, when, ground, **extra)
