"""The two demo jurisdictions: North Branch and Glencoe, side by side."""

from .models import Jurisdiction

DEMO_JURISDICTIONS = [
    {
        "slug": "north-branch",
        "name": "City of North Branch",
        "short_name": "North Branch",
        "profile_key": "north_branch",
        "seal_text": "City of North Branch · Chisago County · Minnesota",
        "address": "6408 Elm Street, North Branch, MN 55056",
        "phone": "(651) 555-0100",
    },
    {
        "slug": "glencoe",
        "name": "City of Glencoe",
        "short_name": "Glencoe",
        "profile_key": "glencoe",
        "seal_text": "City of Glencoe · McLeod County · Minnesota",
        "address": "1107 11th Street East, Glencoe, MN 55336",
        "phone": "(320) 555-0100",
    },
]


def ensure_demo_jurisdictions() -> list[Jurisdiction]:
    found = []
    for row in DEMO_JURISDICTIONS:
        values = {k: v for k, v in row.items() if k != "slug"}
        jurisdiction, _ = Jurisdiction.objects.update_or_create(slug=row["slug"], defaults=values)
        found.append(jurisdiction)
    return found
