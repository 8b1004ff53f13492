"""Demo bites, quarantines and an exposure, made through the rabies services.

In each city a bite by a vaccinated dog three days ago, confined at home with an inspection
logged; in North Branch also an owner's report that came in late (Sec. 6-96(2)); in
Glencoe a dog bitten by a raccoon (deemed rabid, Subd. 1(L)), revaccinated and under the
owner's observation. Loaded once; a second run adds nothing.
"""

from collections import Counter
from datetime import datetime, timedelta

from django.utils import timezone

from impound.models import Pound
from licensing.models import Animal, AnimalStatus
from licensing.services.vaccination import vaccination_status
from rabies.models import BiteReport, BiterKind, QuarantinePlace, RabidBasis, ReporterKind
from rabies.services.bites import bite_report_record
from rabies.services.exposures import exposure_open, exposure_revaccinate
from rabies.services.quarantine import inspection_log, quarantine_order

from .impound import POUND_NAME
from .scene import scene_days


def _vaccinated_dogs(city, today, count, skip=6):
    dogs = (
        Animal.objects.filter(jurisdiction=city, species="dog", status=AnimalStatus.ALIVE)
        .select_related("owner", "jurisdiction")
        .prefetch_related("vaccinations", "license_exemptions")
        .order_by("pk")[skip : skip + 40]
    )
    found = [d for d in dogs if vaccination_status(d, on=today).is_vaccinated]
    return found[:count]


def _bite(city, dog, officer, bitten_at, reported_at, reporter=ReporterKind.OWNER):
    return bite_report_record(
        jurisdiction=city,
        actor=officer,
        reporter_kind=reporter,
        reporter_name=dog.owner.name,
        reported_at=reported_at,
        bitten_at=bitten_at,
        biter_kind=BiterKind.REGISTERED,
        animal=dog,
        skin_broken=True,
        bitten_where="Sidewalk in front of " + (dog.owner.address_line or "the owner's home"),
        victim_name="Dana Reyes",
        victim_address="12 Elm St",
        injuries="Puncture wounds on the left calf",
        provoked=False,
        now=reported_at,
    )


def fill_demo_rabies(jurisdictions, *, users: dict, now: datetime) -> Counter:
    by_slug = {j.slug: j for j in jurisdictions}
    officer, made = users["officer"], Counter()
    today = timezone.localdate(now)
    pound = Pound.objects.filter(name=POUND_NAME).first()
    for slug, city in by_slug.items():
        if BiteReport.objects.filter(jurisdiction=city).exists():
            continue
        dogs = _vaccinated_dogs(city, today, 3)
        if len(dogs) < 2:
            continue
        bitten = now - (scene_days(3) + timedelta(hours=2))
        bite = _bite(city, dogs[0], officer, bitten, bitten + timedelta(hours=3))
        quarantine = quarantine_order(
            bite,
            place=QuarantinePlace.HOME,
            actor=officer,
            consent_by_name="Olivia Brandt",
            consent_on=timezone.localdate(bitten),
            home_address=dogs[0].owner.address,
            pound=pound,
            now=bitten + timedelta(hours=4),
        )
        inspection_log(
            quarantine,
            actor=officer,
            at=now - scene_days(1),
            inspector_name="Olivia Brandt",
            checks=[c["text"] for c in quarantine.conditions],
            compliant=True,
            notes="Dog in the locked kennel run; owner cooperative.",
            now=now - scene_days(1),
        )
        made[slug] += 2
        if slug == "north-branch":
            # An owner who reported two days after the bite (Sec. 6-96(2)).
            late = now - scene_days(6)
            _bite(city, dogs[1], officer, late, late + scene_days(2))
            made[slug] += 1
        elif slug == "glencoe" and len(dogs) > 2:
            exposure = exposure_open(
                animal=dogs[2],
                actor=officer,
                exposed_on=today - scene_days(5),
                how_exposed="Bitten on the muzzle by a raccoon in the back yard",
                rabid_species="raccoon",
                rabid_basis=RabidBasis.DEEMED,
                now=now - scene_days(5),
            )
            exposure_revaccinate(
                exposure=exposure,
                actor=officer,
                revaccinated_on=today - scene_days(4),
                now=now - scene_days(4),
            )
            made[slug] += 1
    return made
