"""Demo impound: a county pound serving both cities and a few cases on the board.

The pound is open Monday to Friday, 9 a.m. to 5 p.m., and closed one day for a holiday
party (a closure the hold counts around, Minn. Stat. 346.47 subd. 1). The cases are made
through ``case_intake`` a few days back, so the board shows days held, the stored hold
end with its section, a Sec. 6-75 dog waiting for a court (IMP-08), a Glencoe stray, and
a North Branch dog whose owner is known. Idempotent: nothing is added once the pound is
there. Hours and days back only make the demo look lived-in; the hold comes from the
profile through the service.
"""

from collections import Counter
from datetime import date, datetime, time, timedelta

from django.utils import timezone

from impound.models import Pound, PoundClosure, PoundHours
from impound.services.intake import case_intake
from licensing.models import Animal, AnimalStatus

POUND_NAME = "Chisago-McLeod County Animal Pound"


def fill_demo_impound(jurisdictions, *, users: dict, now: datetime) -> Counter:
    if Pound.objects.filter(name=POUND_NAME).exists():
        return Counter()
    by_slug = {j.slug: j for j in jurisdictions}
    nb, gl = by_slug["north-branch"], by_slug["glencoe"]
    pound = _pound(nb, gl, today=timezone.localdate(now))
    made = Counter()
    for plan in _plans(nb, gl, now=now):
        placed_at = plan["placed_at"]
        case_intake(
            pound=pound,
            actor=users["officer"],
            seized_on=timezone.localtime(placed_at).date(),
            brought_by_name="Olivia Brandt (animal control)",
            brought_by_address="North Branch City Hall",
            species="dog",
            **plan,
        )
        made[plan["jurisdiction"].slug] += 1
    return made


def _pound(nb, gl, *, today: date) -> Pound:
    """The county pound both cities designated, open weekdays, closed the next Friday."""
    pound = Pound.objects.create(
        name=POUND_NAME,
        address="400 Kennel Road, Glencoe, MN 55336",
        phone="320-555-0170",
        designation="NB Res. 2024-11; Glencoe Res. 2024-07",
        designated_from=date(today.year - 2, 1, 1),
    )
    pound.jurisdictions.set([nb, gl])
    PoundHours.objects.bulk_create(
        PoundHours(pound=pound, weekday=day, opens=time(9), closes=time(17)) for day in range(5)
    )
    closed = today + timedelta(days=(4 - today.weekday()) % 7 or 7)  # the next Friday
    PoundClosure.objects.create(pound=pound, date=closed, reason="Staff training day")
    return pound


def _plans(nb, gl, *, now: datetime) -> list[dict]:
    """Three strays and, where the registry has one, a North Branch dog whose owner is
    known, placed a few days back."""
    today = timezone.localdate(now)

    def back(days, hour):
        placed = timezone.make_aware(
            datetime.combine(today - timedelta(days=days), time(hour)),
            timezone.get_current_timezone(),
        )
        return min(placed, now)

    plans = [
        dict(
            jurisdiction=gl,
            ground="dog_at_large",
            placed_at=back(2, 14),
            seized_where="Hennepin Avenue and 11th Street",
            found_area="Hennepin Avenue at 11th Street",
            breed="Labrador mix",
            sex="female",
            color="Black",
            approximate_age_months=24,
            distinguishing_traits="White blaze on chest",
            kennel="A1",
        ),
        dict(
            jurisdiction=nb,
            ground="sec_6_73_at_large",
            placed_at=back(1, 10),
            seized_where="Main Street at the park",
            found_area="Main Street by the park",
            breed="Pit bull mix",
            sex="male",
            color="Brindle",
            approximate_age_months=36,
            kennel="B2",
        ),
        dict(
            jurisdiction=nb,
            ground="unlicensed_at_large",
            placed_at=back(4, 16),
            seized_where="Fairview Avenue",
            found_area="Fairview Avenue",
            breed="Beagle",
            sex="female",
            color="Tricolor",
            approximate_age_months=60,
            tag_present=True,
            tag_text="Rabies tag only",
            kennel="B4",
        ),
    ]
    known = (
        Animal.objects.filter(jurisdiction=nb, species="dog", status=AnimalStatus.ALIVE)
        .select_related("owner")
        .order_by("pk")
        .first()
    )
    if known is not None:
        plans.append(
            dict(
                jurisdiction=nb,
                ground="unlicensed_at_large",
                placed_at=back(0, 8),
                seized_where=known.owner.address_line,
                animal=known,
                kennel="B5",
            )
        )
    return plans
