"""EXPLAIN ANALYZE of each lookup of the search box, on a loaded database.

    DATABASE_URL=postgres://.../DB .venv/bin/python manage.py shell < tests/bench/search_explain.py

Picks real keys from the data (an issued tag, a rabies tag, a microchip, a phone, a
surname, a street, an animal's name) and prints, for each lookup the search runs for
that key, its execution time (the best of five) and the indexes its plan names; then
the time of the whole ``registry_search`` (lookup, owners, animals) as a clerk of that
city and as a user of every city (the median of five).
"""

import re
import time

from django.contrib.auth import get_user_model

from licensing.models import Animal, Owner, RabiesVaccination, Tag
from licensing.selectors import _lookups, registry_search

RUNS = 5
PAGE = 25  # owners on the page: registry_search cuts the names lookup there
# The lookups of _lookups for one city, in its order.
LOOKUP_NAMES = [
    "owner surnames",
    "other names/address",
    "animal name",
    "rabies tag",
    "microchip",
    "phone",
    "tag",
]

owners = Owner.objects.exclude(phone="").order_by("pk")
owner = owners[owners.count() // 2]
animals = Animal.objects.exclude(microchip="").order_by("pk")
animal = animals[animals.count() // 2]
vaccination = RabiesVaccination.objects.exclude(rabies_tag_number="").order_by("-pk").first()
tag = Tag.objects.filter(license__isnull=False).order_by("-pk").first()
keys = {
    "tag": f"{tag.year}-{tag.number}" if tag else None,
    "rabies tag": vaccination.rabies_tag_number if vaccination else None,
    "microchip": animal.microchip,
    "phone": owner.phone,
    "surname": owner.last_name,
    "address": owner.address_line,
    "animal name": animal.name,
    # A first name thousands of owners share: the case bench_web.py times (q=john).
    "common first name": "john",
}
city = owner.jurisdiction_id
users = [u for u in get_user_model().objects.filter(is_active=True) if u.jurisdiction_ids]
# A clerk of that city alone (the lookups' scope), and a user of every city (an officer
# serving two: each names lookup then runs once per city).
clerk = min(users, key=lambda u: (city not in u.jurisdiction_ids, len(u.jurisdiction_ids)))
everywhere = max(users, key=lambda u: len(u.jurisdiction_ids))
print(f"{Owner.objects.count():,} owners, {Animal.objects.count():,} animals")
for kind, query in keys.items():
    if not query:
        continue
    print(f"\n{kind}: {query!r}")
    for name, lookup in zip(LOOKUP_NAMES, _lookups(query, [city], PAGE), strict=False):
        # The best of RUNS: on a shared machine one run measures the neighbours too.
        plans = [lookup.explain(analyze=True) for _ in range(RUNS)]
        ms = min(float(re.search(r"Execution Time: ([\d.]+) ms", p)[1]) for p in plans)
        plan = plans[-1]
        indexes = sorted(
            set(re.findall(r"(?:Index Scan|Index Only Scan) (?:using |on )(\w+)", plan))
        )
        seq = sorted(set(re.findall(r"Seq Scan on (\w+)", plan)))
        print(
            f"  {name:20} {ms:>9.3f} ms  indexes: {', '.join(indexes)}"
            + (f"  SEQ SCAN: {', '.join(seq)}" if seq else "")
        )
    for label, user in (
        ("one city", clerk),
        (f"{len(everywhere.jurisdiction_ids)} cities", everywhere),
    ):
        times = []
        for _ in range(RUNS):
            started = time.monotonic()
            hits = registry_search(user=user, query=query)
            times.append((time.monotonic() - started) * 1000)
        median = sorted(times)[RUNS // 2]
        print(f"  whole search, {label}: {median:.1f} ms (median), {len(hits)} owners")
