"""Demo permits in Glencoe, made through the permit services: a horse permit
application checked by the clerk and waiting for the Council's resolution (702; its fee
is blank in the ordinance, FEE-13, so nothing is issued until the city sets it), and a
temporary wild-animal permit approved for a show in the coming weeks (Subd. 32(A)).
North Branch's ordinance has no permits: nothing is made there. Loaded once.
"""

from collections import Counter
from datetime import datetime, timedelta
from decimal import Decimal

from django.utils import timezone

from ordinance.rules import rule_in_force
from permits.models import HorsePermit, TemporaryPermit
from permits.services.horses import horse_apply, horse_checks_record
from permits.services.temporary import temporary_apply, temporary_decide

from .scene import scene_days


def fill_demo_permits(jurisdictions, *, users: dict, now: datetime) -> Counter:
    made = Counter()
    city = next((j for j in jurisdictions if j.slug == "glencoe"), None)
    if city is None or HorsePermit.objects.filter(jurisdiction=city).exists():
        return made
    clerk = users["clerk.glencoe"]
    today = timezone.localdate(now)
    # A pasture just large enough for two horses under 702(e), read from the rulebook.
    per_animal = rule_in_force(city, "horse_acres_per_animal", on=today).value
    permit = horse_apply(
        jurisdiction=city,
        actor=clerk,
        on=today - scene_days(6),
        applicant_name="Hanna Lindgren",
        applicant_address="2200 Morningside Ave, Glencoe, MN 55336",
        applicant_phone="320-555-0111",
        applicant_email="hanna.lindgren@example.org",
        legal_description="Lot 4, Block 2, Morningside Addition",
        landowner_name="Peter Lindgren",
        pasture_acres=Decimal(per_animal) * 2,
        horses=2,
        colts=0,
        ponies=0,
        mules=0,
        shelter_description="Wood run-in shed, 12 by 24 feet, open to the south",
        residence_distance_ft=45,
        fence_material="wood",
    )
    horse_checks_record(
        permit=permit,
        shelter_ok=True,
        grazing_ok=True,
        sanitation_ok=True,
        note="Visited the pasture; shed and fence in good repair.",
        actor=clerk,
        on=today - scene_days(3),
    )
    made[city.slug] += 1
    if not TemporaryPermit.objects.filter(jurisdiction=city).exists():
        starts = today + scene_days(20)
        show = temporary_apply(
            jurisdiction=city,
            actor=clerk,
            on=today - scene_days(2),
            applicant_name="Carson Bros. Circus",
            applicant_address="1 Fairground Rd, Hutchinson, MN 55350",
            applicant_phone="320-555-0100",
            show_name="Carson Bros. Big Top",
            location="Glencoe City Park, 1107 11th St E",
            species="Asian elephant (2)\nBengal tiger (3)",
            state_permit_number="MN-DNR-2026-441",
            state_exempt=False,
            exemption_basis="",
            starts_on=starts,
            ends_on=starts + scene_days(4),
            conditions="Animals kept in locked enclosures away from the public.\n"
            "Water and shade at all times.",
        )
        temporary_decide(
            permit=show,
            decision="approved",
            decided_by_name="Mark Larson",
            decided_by_capacity="City Administrator",
            decided_on=today - scene_days(1),
            reasons="",
            actor=clerk,
            now=now - timedelta(hours=2),
        )
        made[city.slug] += 1
    return made
