"""Helpers of the hearing and appeal tests: a contested case, a panel as the Mayor
appoints it, and a hearing already held (written straight to the database so a test of
one step does not replay the ones before it)."""

from datetime import date, timedelta

from dangerous_dogs.models import CaseStatus, PanelHearing, PanelSeat, Seat

from .helpers import at, make_case


def contested(city, officer, *, today: date, status=CaseStatus.CONTESTED, **fields):
    """A case whose owner asked for a hearing in time (part A's CONTESTED state)."""
    values = {
        "notice_received_on": today - timedelta(days=20),
        "contest_deadline": today - timedelta(days=6),
        "contest_citation": "Glencoe 701 Subd. 15(B), (J)",
        "contest_received_on": today - timedelta(days=10),
        "contest_received_by": "Olivia Officer",
    }
    values.update(fields)
    return make_case(city, officer, status=status, **values)


def panel(impartial=True):
    """Two council members and an elector, as the Mayor appointed them."""
    return [
        {"seat": Seat.COUNCIL, "name": "Cora Council", "impartial": impartial},
        {"seat": Seat.COUNCIL, "name": "Carl Council", "impartial": impartial},
        {"seat": Seat.ELECTOR, "name": "Ellen Elector", "impartial": impartial},
    ]


def scheduled(city, officer, *, today: date, on: date | None = None, seats=None, **fields):
    """A case referred to the panel with a hearing scheduled on ``on`` (default: today)."""
    case = contested(city, officer, today=today, status=CaseStatus.HEARING, **fields)
    hearing = PanelHearing.objects.create(
        case=case,
        scheduled_for=at(on or today, 9),
        place="Glencoe City Center, Council Chambers",
        recorded_by=officer,
    )
    for seat in seats or panel():
        PanelSeat.objects.create(hearing=hearing, **seat)
    return hearing
