"""Complaint test helpers: a complaint taken through the intake service."""

from datetime import datetime
from zoneinfo import ZoneInfo

from complaints.services import complaint_intake

CHICAGO = ZoneInfo("America/Chicago")


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


def take_complaint(city, actor, *, kind="barking", when=None, **extra):
    when = when or at(2026, 6, 15, 21, 0)
    fields = dict(
        kind=kind,
        channel="counter",
        address_line="12 North Elm Street",
        occurred_at=when,
        received_at=when,
        narrative="The dog next door barks for hours.",
        complainant_name="Nora Neighbour",
        complainant_phone="651-555-0100",
        now=when,
    )
    fields.update(extra)
    return complaint_intake(jurisdiction=city, actor=actor, **fields)
