"""Permit test helpers: applications as the clerk enters them, the council's fee."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import time_machine

from ordinance.models import FeeScheduleEntry
from permits.services import horses, temporary

CHICAGO = ZoneInfo("America/Chicago")


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


def temporary_fields(**extra):
    fields = dict(
        applicant_name="Zzgl Carson Bros. Circus",
        applicant_address="1 Fairground Rd, Hutchinson, MN",
        applicant_phone="320-555-0100",
        show_name="Carson Bros. Big Top",
        location="Glencoe City Park, 1107 11th St E",
        species="Asian elephant (2)\nBengal tiger (3)",
        state_permit_number="MN-DNR-2026-441",
        state_exempt=False,
        exemption_basis="",
        starts_on=date(2026, 6, 1),
        ends_on=date(2026, 6, 30),
        conditions="Animals kept in locked enclosures away from the public.\n"
        "Water and shade at all times.",
    )
    fields.update(extra)
    return fields


def horse_fields(**extra):
    fields = dict(
        applicant_name="Zzgl Hanna Horseowner",
        applicant_address="2200 Morningside Ave, Glencoe, MN",
        applicant_phone="320-555-0111",
        applicant_email="hanna@example.org",
        legal_description="Lot 4, Block 2, Morningside Addition",
        landowner_name="Peter Landowner",
        pasture_acres=Decimal("0.6"),
        horses=2,
        colts=0,
        ponies=0,
        mules=0,
        shelter_description="Wood run-in shed, 12 by 24 feet",
        residence_distance_ft=45,
        fence_material="wood",
    )
    fields.update(extra)
    return fields


def set_horse_fee(city, amount, *, effective_from=date(2026, 1, 1)):
    return FeeScheduleEntry.objects.create(
        jurisdiction=city,
        code="horse_permit",
        description="Horse permit",
        amount=Decimal(amount),
        effective_from=effective_from,
        resolution="Council Res. 2026-14",
    )


def approved_horse_permit(city, clerk, *, on: date, **extra):
    """An application through the checks and the Council's approval on ``on``."""
    with time_machine.travel(datetime(on.year, on.month, on.day, 9, tzinfo=CHICAGO), tick=False):
        permit = horses.horse_apply(jurisdiction=city, actor=clerk, **horse_fields(**extra))
        permit = horses.horse_checks_record(
            permit=permit,
            shelter_ok=True,
            grazing_ok=True,
            sanitation_ok=True,
            note="Visited.",
            actor=clerk,
        )
        return horses.horse_council_decide(
            permit=permit,
            decision="approved",
            council_date=on,
            resolution_number="Res. 2026-31",
            reasons="",
            actor=clerk,
        )


def issued_horse_permit(city, clerk, *, on: date, **extra):
    permit = approved_horse_permit(city, clerk, on=on, **extra)
    with time_machine.travel(datetime(on.year, on.month, on.day, 10, tzinfo=CHICAGO), tick=False):
        return horses.horse_issue(permit=permit, actor=clerk)


def issued_temporary_permit(city, clerk, *, on: date, **extra):
    with time_machine.travel(datetime(on.year, on.month, on.day, 9, tzinfo=CHICAGO), tick=False):
        permit = temporary.temporary_apply(
            jurisdiction=city, actor=clerk, **temporary_fields(**extra)
        )
        return temporary.temporary_decide(
            permit=permit,
            decision="approved",
            decided_by_name="Mark Larson",
            decided_by_capacity="City Administrator",
            decided_on=on,
            reasons="Conditions met.",
            actor=clerk,
        )
