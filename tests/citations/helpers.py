"""Citation test helpers: a citation issued through the service at a given moment."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import time_machine

from citations.services.issuance import Charge, Defendant, issue_citation
from citations.services.status import citation_status_change
from citations.services.violations import violation_code

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 6, 15, 10, 0, tzinfo=CHICAGO)  # a Monday
COURT = "Chisago County District Court"


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


def default_class(city, code, when=NOW):
    return violation_code(city, code, on=when.date()).charge_class


def cite(city, officer, animal, code="at_large", *, when=NOW, appear=None, **extra):
    """Issue a citation as the officer would at ``when``, confirming the proposed class
    unless ``charge_class`` is given."""
    from citations.services.violations import propose_for

    with time_machine.travel(when, tick=False):
        if "charge_class" not in extra:
            _code, proposal = propose_for(
                jurisdiction=city,
                violation=code,
                violated_at=when,
                animal=animal,
                owner=extra.get("owner"),
            )
            extra["charge_class"] = proposal.charge_class
        charge = Charge(
            violation=code,
            violated_at=extra.pop("violated_at", when),
            location=extra.pop("location", "Riverside Park"),
            court=extra.pop("court", COURT),
            appearance_on=appear or date(when.year, when.month, 28),
            charge_class=extra.pop("charge_class"),
            class_reason=extra.pop("class_reason", ""),
        )
        defendant = Defendant(
            owner=extra.pop("owner", None),
            animal=animal,
            name=extra.pop("defendant_name", ""),
            address=extra.pop("defendant_address", ""),
        )
        return issue_citation(
            jurisdiction=city, actor=officer, charge=charge, defendant=defendant, now=when, **extra
        )


def adjudicate(citation, actor, *, when):
    with time_machine.travel(when, tick=False):
        return citation_status_change(
            citation=citation, status="adjudicated", on=when.date(), actor=actor, now=when
        )
