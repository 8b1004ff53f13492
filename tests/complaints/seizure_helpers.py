"""Barking-seizure test helpers: a Glencoe barking complaint two days after an earlier
one at the same address, a failed contact attempt, and all seven conditions."""

from datetime import timedelta

from complaints.seizure import contact_attempt_record
from tests.complaints.helpers import at, take_complaint
from tests.impound.factories import make_pound

# Monday, June 15 2026, 10 pm (Chicago): the night of the seizure.
NOW = at(2026, 6, 15, 22, 0)
ADDRESS = "12 North Elm Street"


def earlier_and_now(city, actor, *, earlier_kind="barking", earlier_when=None, **now_extra):
    """The earlier complaint (two days before unless told) and tonight's."""
    earlier = take_complaint(
        city,
        actor,
        kind=earlier_kind,
        when=earlier_when or NOW - timedelta(days=2),
        address_line="12 N. Elm St.",
    )
    tonight = take_complaint(city, actor, when=NOW - timedelta(minutes=30), **now_extra)
    return earlier, tonight


def failed_attempt(complaint, actor, result="no_answer"):
    return contact_attempt_record(
        complaint=complaint,
        actor=actor,
        attempted_at=NOW - timedelta(minutes=15),
        method="phone",
        contacted="Owner, 320-555-0142",
        result=result,
        now=NOW - timedelta(minutes=10),
    )


def all_seven(pound, **override):
    fields = dict(
        pound=pound,
        complainant_contemporaneous=True,
        barking_meets_criteria=True,
        contact_failed=True,
        no_forced_entry=True,
        entry_means="no_residence",
        passkey_from="",
        no_less_intrusive=True,
        less_intrusive="Knocked, phoned, left a message; no one home and the dog still barking.",
        notice_place="Front door",
    )
    fields.update(override)
    return fields


def glencoe_pound(glencoe):
    return make_pound(glencoe, name="Glencoe Pound")
