"""Demo lost-pet reports: the demo resident has reported two animals lost,
filed through ``lost_report_file`` as the resident would. One is a black Labrador lost
near where the pound's Glencoe stray was found, so the match shows on the officer's
``/impound/lost/`` list and on the case; the other, a North Branch cat, matches nothing
in the pound. Loaded once: nothing is added when the resident already has a report.
How long each stays open comes from the profile through the service.
"""

from collections import Counter
from datetime import datetime

from django.utils import timezone

from impound.models import LostReport
from impound.services.lost import lost_report_file

from .scene import scene_days

REPORTS = [
    dict(
        city="glencoe",
        days_back=3,  # the day before the pound's Glencoe stray was taken in
        species="dog",
        breed="Labrador Retriever",
        color="Black",
        sex="female",
        approximate_age_months=24,
        name="Juno",
        distinguishing_marks="White blaze on chest",
        lost_where="Hennepin Avenue near 12th Street",
    ),
    dict(
        city="north-branch",
        days_back=5,
        species="cat",
        breed="Domestic shorthair",
        color="Gray tabby",
        sex="male",
        approximate_age_months=48,
        name="Pepper",
        lost_where="Elm Street by the library",
    ),
]


def fill_demo_lost(jurisdictions, *, users: dict, now: datetime) -> Counter:
    made = Counter()
    resident = users.get("resident")
    if resident is None or LostReport.objects.filter(reporter=resident).exists():
        return made
    by_slug = {j.slug: j for j in jurisdictions}
    today = timezone.localdate(now)
    for plan in REPORTS:
        fields = dict(plan)
        city = by_slug[fields.pop("city")]
        lost_on = today - scene_days(fields.pop("days_back"))
        lost_report_file(
            reporter=resident,
            jurisdiction=city,
            now=now,
            lost_on=lost_on,
            contact_preference="email",
            **fields,
        )
        made[city.slug] += 1
    return made
