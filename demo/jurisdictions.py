"""The two demo jurisdictions: North Branch and Glencoe, side by side.

``ensure_demo_jurisdictions`` is called by most test fixtures, so it stays idempotent
and cheap: when everything is already there it costs a handful of queries.
"""

from datetime import date
from decimal import Decimal

from simple_history.utils import bulk_create_with_history

from ordinance.amendments import load_profile
from ordinance.models import FeeScheduleEntry, Jurisdiction

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

# Demo resolutions only: the real amounts are whatever each council resolves.
DEMO_NOTE = "Demo data: not a real council resolution."
DEMO_FEES = [
    (
        "north-branch",
        "dog_license",
        "Annual dog license",
        "15.00",
        date(2025, 1, 1),
        "Demo Res. 2025-01",
    ),
    (
        "north-branch",
        "dog_license",
        "Annual dog license",
        "18.00",
        date(2026, 1, 1),
        "Demo Res. 2025-14",
    ),
    (
        "north-branch",
        "kennel_license",
        "Annual kennel license",
        "50.00",
        date(2025, 1, 1),
        "Demo Res. 2025-01",
    ),
    ("glencoe", "kennel_license", "Kennel license", "40.00", date(2025, 1, 1), "Demo Res. 2025-01"),
]


def ensure_demo_jurisdictions() -> list[Jurisdiction]:
    found = []
    for row in DEMO_JURISDICTIONS:
        values = {k: v for k, v in row.items() if k != "slug"}
        jurisdiction, created = Jurisdiction.objects.get_or_create(
            slug=row["slug"], defaults=values
        )
        changed = [k for k, v in values.items() if getattr(jurisdiction, k) != v]
        if changed and not created:  # saved only when it differs: no empty history rows
            for key in changed:
                setattr(jurisdiction, key, values[key])
            jurisdiction.save(update_fields=changed)
        load_profile(jurisdiction)
        found.append(jurisdiction)
    _ensure_demo_fees({j.slug: j for j in found})
    return found


def _ensure_demo_fees(by_slug: dict[str, Jurisdiction]) -> None:
    have = set(
        FeeScheduleEntry.objects.filter(jurisdiction__in=by_slug.values()).values_list(
            "jurisdiction__slug", "code", "effective_from"
        )
    )
    missing = [
        FeeScheduleEntry(
            jurisdiction=by_slug[slug],
            code=code,
            description=description,
            amount=Decimal(amount),
            effective_from=start,
            resolution=resolution,
            notes=DEMO_NOTE,
        )
        for slug, code, description, amount, start, resolution in DEMO_FEES
        if (slug, code, start) not in have
    ]
    if missing:
        bulk_create_with_history(missing, FeeScheduleEntry)
