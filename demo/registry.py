"""Demo registry: each demo city filled as a small Minnesota city, deterministically.

``fill_demo_registry`` gives North Branch and Glencoe a few hundred households each, with
dogs and cats, rabies certificates from local-sounding clinics (most current, some
lapsed) and ownership rows; the demo ``resident`` login owns two North Branch animals.
``fill_bulk`` adds N more animals for load tests (``demo_data --size 200000``) with
bulk inserts, history rows included. Both are idempotent: a city that already carries
the marker event is left alone. Nothing here is an ordinance value: ages and dates are
only there to make the demo look lived-in.
"""

import random
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta
from django.db import connection, transaction
from django.utils import timezone

from licensing.models import (
    Animal,
    Owner,
    OwnerSearch,
    Ownership,
    Premises,
    RabiesVaccination,
    Sex,
    Species,
)
from licensing.models.registry import phone_digits
from licensing.services import registry as services
from ordinance.models import Event, Jurisdiction

from .names import CAT_BREEDS, CAT_NAMES, DOG_BREEDS, DOG_NAMES, FIRST_NAMES, LAST_NAMES, VACCINES

FILLED = "licensing.demo.filled"
BULK_FILLED = "licensing.demo.bulk_filled"
REASON = "Demo data"
BATCH = 5000
DAYS_PER_YEAR = 365

# Demo pets come home at about eight weeks old (demo data, not an ordinance value).
DEMO_ADOPTION_AGE_MONTHS = 2


@dataclass(frozen=True)
class Clinic:
    code: str
    name: str
    address: str
    vets: tuple


@dataclass(frozen=True)
class CityPlan:
    owners: int
    area_code: str
    postal_code: str
    streets: tuple
    clinics: tuple
    share: int  # per cent of a --size run's animals


PLANS = {
    "north-branch": CityPlan(
        owners=320,
        area_code="651",
        postal_code="55056",
        share=60,
        streets=(
            "Main Street",
            "Elm Street",
            "Maple Street",
            "Oak Street",
            "Ash Street",
            "Birch Street",
            "Cedar Street",
            "Linden Street",
            "Grand Avenue",
            "Forest Boulevard",
            "Russell Street",
            "Alder Street",
            "St. Croix Trail",
            "Fairview Avenue",
            "Ridge Road",
            "Sunrise Road",
            "400th Street",
            "390th Street",
            "Flink Avenue",
            "Lofton Avenue",
        ),
        clinics=(
            Clinic(
                "SRV",
                "Sunrise River Veterinary Clinic",
                "6125 Main Street, North Branch, MN 55056",
                (("Dr. Karen Lindahl", "MN-11873"), ("Dr. Erik Holm", "MN-13402")),
            ),
            Clinic(
                "CLA",
                "Chisago Lakes Animal Hospital",
                "11020 Lake Boulevard, Chisago City, MN 55013",
                (("Dr. Ann Bergstrom", "MN-09921"),),
            ),
            Clinic(
                "NBV",
                "North Branch Veterinary Service",
                "38660 Forest Boulevard, North Branch, MN 55056",
                (("Dr. Paul Swanson", "MN-12207"),),
            ),
        ),
    ),
    "glencoe": CityPlan(
        owners=220,
        area_code="320",
        postal_code="55336",
        share=40,
        streets=(
            "Hennepin Avenue",
            "Greeley Avenue",
            "Chandler Avenue",
            "DeSoto Avenue",
            "Morningside Drive",
            "Ford Avenue",
            "Elliott Avenue",
            "Louden Avenue",
            "Union Avenue",
            "Baxter Avenue",
            "Pryor Avenue",
            "Armstrong Avenue",
            "10th Street East",
            "13th Street East",
            "14th Street East",
            "9th Street West",
            "Judd Avenue",
            "Newton Avenue",
        ),
        clinics=(
            Clinic(
                "GVC",
                "Glencoe Veterinary Clinic",
                "1512 10th Street East, Glencoe, MN 55336",
                (("Dr. Gerhard Kuehn", "MN-10558"), ("Dr. Maria Garcia", "MN-14011")),
            ),
            Clinic(
                "BCA",
                "Buffalo Creek Animal Hospital",
                "730 Chandler Avenue, Glencoe, MN 55336",
                (("Dr. Heidi Schultz", "MN-11390"),),
            ),
            Clinic(
                "MCV",
                "McLeod County Veterinary Service",
                "1005 Hennepin Avenue, Glencoe, MN 55336",
                (("Dr. Dale Reinke", "MN-08876"),),
            ),
        ),
    ),
}
RESIDENT_ANIMALS = (
    ("Juniper", Species.DOG, "Golden Retriever", "Golden", Sex.FEMALE),
    ("Mochi", Species.CAT, "Domestic Shorthair", "Orange tabby", Sex.MALE),
)


def fill_demo_registry(jurisdictions, *, today: date, resident_user=None) -> dict:
    """Fill each demo city once; returns {city slug: animals added} (0 if already filled)."""
    added = {}
    for index, jurisdiction in enumerate(jurisdictions):
        plan = PLANS.get(jurisdiction.slug)
        if plan is None or Event.objects.filter(action=FILLED, jurisdiction=jurisdiction).exists():
            added[jurisdiction.slug] = 0
            continue
        rng = random.Random(f"demo-{jurisdiction.slug}")
        addresses = _small_city_addresses(rng, plan)
        added[jurisdiction.slug] = _fill(
            rng,
            jurisdiction,
            plan,
            addresses,
            today=today,
            animals=None,
            chip_base=(index + 1) * 10**7,
        )
        Event.record(
            FILLED,
            jurisdiction=jurisdiction,
            summary="Demo registry loaded",
            data={"animals": added[jurisdiction.slug]},
        )
    if resident_user is not None:
        by_slug = {j.slug: j for j in jurisdictions}
        if "north-branch" in by_slug:
            ensure_resident_animals(resident_user, by_slug["north-branch"], today=today)
    return added


def fill_bulk(jurisdictions, *, size: int, today: date) -> int:
    """Add ``size`` animals across the demo cities (once), for load tests."""
    cities = [j for j in jurisdictions if j.slug in PLANS]
    if size <= 0 or not cities or Event.objects.filter(action=BULK_FILLED).exists():
        return 0
    total_share = sum(PLANS[j.slug].share for j in cities)
    remaining, added = size, 0
    for index, jurisdiction in enumerate(cities):
        plan = PLANS[jurisdiction.slug]
        count = remaining if index == len(cities) - 1 else size * plan.share // total_share
        remaining -= count
        rng = random.Random(f"bulk-{jurisdiction.slug}-{size}")
        # Bulk addresses use house numbers above the small-city range, so they never
        # collide with the premises the ordinary demo created.
        households = count + 1  # an upper bound: filling stops at `count` animals
        addresses = (
            (f"{10000 + i // len(plan.streets)} {plan.streets[i % len(plan.streets)]}")
            for i in range(households)
        )
        added += _fill(
            rng,
            jurisdiction,
            plan,
            addresses,
            today=today,
            animals=count,
            chip_base=10**11 + index * 10**9,
        )
    Event.record(
        BULK_FILLED,
        summary=f"Bulk demo registry: {added} animals",
        data={"size": size, "animals": added},
    )
    return added


def ensure_resident_animals(user, jurisdiction: Jurisdiction, *, today: date) -> Owner:
    """The demo resident owns two North Branch animals, made through the services."""
    owner = Owner.objects.filter(user=user).first()
    if owner is not None:
        return owner
    owner = services.owner_create(
        jurisdiction=jurisdiction,
        actor=None,
        first_name=user.first_name or "Rita",
        last_name=user.last_name or "Johnson",
        address_line="38525 Grand Avenue",
        city=jurisdiction.short_name,
        postal_code=PLANS["north-branch"].postal_code,
        phone="(651) 555-0142",
        email=user.email,
        user=user,
    )
    clinic = PLANS["north-branch"].clinics[0]
    for years, (name, species, breed, color, sex) in enumerate(RESIDENT_ANIMALS, start=3):
        born = today - relativedelta(years=years, months=2)
        animal = services.animal_register(
            owner=owner,
            actor=None,
            on=today,
            species=species,
            name=name,
            breed=breed,
            color=color,
            sex=sex,
            sterilized=True,
            date_of_birth=born,
            acquired_on=born + relativedelta(months=DEMO_ADOPTION_AGE_MONTHS),
            microchip=f"98511200{years:07d}",
        )
        services.vaccination_record(
            animal=animal,
            actor=None,
            on=today,
            vaccinated_on=today - relativedelta(months=years * 3),
            duration_years=3,
            manufacturer="Zoetis",
            product="Defensor 3",
            lot_number=f"DF{years}2207",
            rabies_tag_number=f"{clinic.code}-{today.year}-{years:05d}",
            veterinarian_name=clinic.vets[0][0],
            veterinarian_license=clinic.vets[0][1],
            clinic_name=clinic.name,
            clinic_address=clinic.address,
        )
    return owner


def _small_city_addresses(rng, plan: CityPlan):
    seen, addresses = set(), []
    while len(addresses) < plan.owners:
        street = rng.choice(plan.streets)
        number = rng.randrange(100, 9999) if street[0].isalpha() else rng.randrange(5000, 9999)
        if (number, street) not in seen:
            seen.add((number, street))
            addresses.append(f"{number} {street}")
    return addresses


def _fill(rng, jurisdiction, plan, addresses, *, today, animals, chip_base) -> int:
    """Create households from ``addresses`` in batches; stop at ``animals`` if given."""
    made, chips, batch = 0, [chip_base], []
    for address in addresses:
        batch.append(address)
        if len(batch) == BATCH // 2:
            made += _household_batch(
                rng,
                jurisdiction,
                plan,
                batch,
                today,
                chips,
                None if animals is None else animals - made,
            )
            batch = []
        if animals is not None and made >= animals:
            return made
    if batch:
        made += _household_batch(
            rng,
            jurisdiction,
            plan,
            batch,
            today,
            chips,
            None if animals is None else animals - made,
        )
    return made


def bulk_create_with_history(objs, model, *, batch_size, default_change_reason):
    """bulk_create, then the "+" history rows in one INSERT ... SELECT per batch.

    simple-history's own helper builds a Python object per history row, which doubles
    the time of a 200,000-animal load; copying the rows in SQL gives the same rows.
    """
    created = model.objects.bulk_create(objs, batch_size=batch_size)
    history = model.history.model
    columns = ", ".join(connection.ops.quote_name(f.column) for f in history.tracked_fields)
    ids = [obj.pk for obj in created]
    with connection.cursor() as cursor:
        for start in range(0, len(ids), batch_size):
            chunk = ids[start : start + batch_size]
            cursor.execute(
                f"INSERT INTO {connection.ops.quote_name(history._meta.db_table)} "
                f"({columns}, history_date, history_change_reason, history_type, "
                f"history_user_id) SELECT {columns}, %s, %s, '+', NULL "
                f"FROM {connection.ops.quote_name(model._meta.db_table)} "
                f"WHERE id IN ({', '.join(['%s'] * len(chunk))})",
                [timezone.now(), default_change_reason, *chunk],
            )
    return created


@transaction.atomic
def _household_batch(rng, jurisdiction, plan, addresses, today, chips, cap) -> int:
    owners, premises = [], []
    for address in addresses:
        owner = _owner(rng, jurisdiction, plan, address)
        owners.append(owner)
        premises.append(
            Premises(
                jurisdiction=jurisdiction,
                address_line=owner.address_line,
                city=owner.city,
                postal_code=owner.postal_code,
            )
        )
    owners = bulk_create_with_history(owners, Owner, batch_size=BATCH, default_change_reason=REASON)
    # bulk_create skips Owner.save(): the search box's rows, set-based.
    OwnerSearch.objects.refresh(o.pk for o in owners)
    premises = bulk_create_with_history(
        premises, Premises, batch_size=BATCH, default_change_reason=REASON
    )
    animals = []
    for owner, place in zip(owners, premises, strict=True):
        count = rng.choices((1, 2, 3), weights=(55, 33, 12))[0]
        for _ in range(count):
            if cap is not None and len(animals) >= cap:
                break
            animals.append(_animal(rng, jurisdiction, owner, place, today, chips))
    animals = bulk_create_with_history(
        animals, Animal, batch_size=BATCH, default_change_reason=REASON
    )
    ownerships = [
        Ownership(
            animal=a, owner_id=a.owner_id, premises_id=a.premises_id, started_on=a.acquired_on
        )
        for a in animals
    ]
    bulk_create_with_history(ownerships, Ownership, batch_size=BATCH, default_change_reason=REASON)
    vaccinations = [v for v in (_vaccination(rng, plan, a, today) for a in animals) if v]
    bulk_create_with_history(
        vaccinations, RabiesVaccination, batch_size=BATCH, default_change_reason=REASON
    )
    return len(animals)


def _owner(rng, jurisdiction, plan, address) -> Owner:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    phone = f"({plan.area_code}) 555-01{rng.randrange(100):02d}"
    return Owner(
        jurisdiction=jurisdiction,
        first_name=first,
        last_name=last,
        address_line=address,
        city=jurisdiction.short_name,
        postal_code=plan.postal_code,
        phone=phone,
        phone_digits=phone_digits(phone),  # bulk_create skips Owner.save()
        email=f"{first}.{last}{rng.randrange(100)}@example.org".lower(),
    )


def _animal(rng, jurisdiction, owner, place, today, chips) -> Animal:
    is_dog = rng.random() < 0.62
    names, breeds = (DOG_NAMES, DOG_BREEDS) if is_dog else (CAT_NAMES, CAT_BREEDS)
    breed, colors = rng.choice(breeds)
    born = today - timedelta(days=rng.randrange(DAYS_PER_YEAR // 2, DAYS_PER_YEAR * 14))
    acquired = min(today, born + timedelta(days=rng.randrange(50, DAYS_PER_YEAR)))
    chips[0] += 1
    return Animal(
        jurisdiction=jurisdiction,
        owner=owner,
        premises=place,
        species=Species.DOG if is_dog else Species.CAT,
        name=rng.choice(names),
        breed=breed,
        color=rng.choice(colors),
        sex=rng.choice((Sex.MALE, Sex.FEMALE)),
        sterilized=rng.random() < 0.7,
        date_of_birth=born,
        dob_is_estimate=rng.random() < 0.2,
        acquired_on=acquired,
        microchip=f"985{chips[0]:012d}" if rng.random() < 0.45 else "",
    )


def _vaccination(rng, plan, animal, today) -> RabiesVaccination | None:
    if rng.random() < 0.08:
        return None  # never vaccinated: the demo needs some of those too
    duration = rng.choice((1, 3, 3))
    lapsed = rng.random() < 0.15
    span = DAYS_PER_YEAR * duration
    age_days = (today - animal.date_of_birth).days
    back = rng.randrange(span, span + DAYS_PER_YEAR) if lapsed else rng.randrange(1, span - 1)
    given = max(
        animal.date_of_birth + timedelta(days=min(age_days, DAYS_PER_YEAR // 3)),
        today - timedelta(days=back),
    )
    clinic = rng.choice(plan.clinics)
    vet, license = rng.choice(clinic.vets)
    manufacturer, product = rng.choice(VACCINES)
    return RabiesVaccination(
        animal=animal,
        vaccinated_on=given,
        duration_years=duration,
        next_due_on=given + relativedelta(years=duration),
        manufacturer=manufacturer,
        product=product,
        lot_number=f"{product[:2].upper()}{rng.randrange(10000, 99999)}",
        rabies_tag_number=f"{clinic.code}-{given.year}-{rng.randrange(1, 99999):05d}",
        veterinarian_name=vet,
        veterinarian_license=license,
        clinic_name=clinic.name,
        clinic_address=clinic.address,
    )
