"""Shared test helpers for the dangerous-dog app.

``make_case`` writes a ``DesignationCase`` straight to the database in a given state, so
a test of one stage (a hearing, compliance) does not replay the stages before it; the
services' own tests go through the services.
"""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.utils import timezone

from dangerous_dogs.models import CaseStatus, Criterion, Designation, DesignationCase, IncidentKind
from tests.impound.helpers import owned_dog

CENTRAL = ZoneInfo("America/Chicago")


def at(day: date, hour=10, minute=0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CENTRAL)


_numbers = iter(range(1, 100000))


def make_case(city, officer, *, animal=None, status=CaseStatus.DETERMINED, **fields):
    """A case as an investigation leaves it, in ``status``; ``fields`` override."""
    animal = animal or owned_dog(city)
    today = timezone.localdate()
    values = {
        "jurisdiction": city,
        "number": f"DD-{today.year}-T{next(_numbers):04d}",
        "animal": animal,
        "owner": animal.owner,
        "status": status,
        "status_changed_at": timezone.now(),
        "incident_kind": IncidentKind.BITE_HUMAN,
        "occurred_at": at(today - timedelta(days=3)),
        "location": "Greeley Ave and 11th St",
        "victim": "A passer-by, Dana Reyes",
        "injuries": "Puncture wounds needing stitches",
        "criterion": Criterion.SUBSTANTIAL_HARM,
        "designation": Designation.DANGEROUS,
        "exemption_findings": "No trespass, provocation or crime: the victim was on the sidewalk.",
        "investigated_by_name": "Olivia Officer",
        "investigated_on": today - timedelta(days=1),
        "officer": officer,
    }
    values.update(fields)
    return DesignationCase.objects.create(**values)


def declared(
    city, officer, *, on: date, designation=Designation.DANGEROUS, received_on=None, **fields
):
    """A case declared by default on ``on``; the owner received it ``received_on``."""
    from dangerous_dogs.services.common import deadline

    values = {
        "status": CaseStatus.DECLARED,
        "declared_designation": designation,
        "declared_by": "default",
        "declared_on": on,
        "designation": designation,
    }
    if received_on is not None:
        due, citation = deadline(city, "dd_compliance_days", received_on)
        values.update(
            declaration_received_on=received_on,
            compliance_deadline=due,
            compliance_citation=citation,
        )
    values.update(fields)
    return make_case(city, officer, **values)
