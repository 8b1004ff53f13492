"""demo_data: realistic, deterministic and idempotent (running it twice adds nothing)."""

from datetime import datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from demo.jurisdictions import ensure_demo_jurisdictions
from demo.registry import fill_demo_registry
from demo.users import ensure_demo_users
from licensing.models import (
    Animal,
    License,
    LicenseStatus,
    Owner,
    Ownership,
    Premises,
    RabiesVaccination,
    Receipt,
)
from ordinance.models import Jurisdiction

MODELS = (Owner, Premises, Animal, Ownership, RabiesVaccination)


def counts():
    return {m.__name__: m.objects.count() for m in MODELS} | {
        m.__name__ + " history": m.history.count() for m in MODELS
    }


def run(*args):
    out = StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()


def run_registry():
    """The registry part of demo_data alone (the licensing part is tested further down)."""
    cities = ensure_demo_jurisdictions()
    users = ensure_demo_users({j.slug: j for j in cities})
    resident = next(u for u in users if u.username == "resident")
    fill_demo_registry(cities, today=timezone.localdate(), resident_user=resident)


@pytest.mark.django_db
def test_it_fills_both_cities_and_running_it_twice_adds_nothing():
    run_registry()
    first = counts()
    assert 400 <= first["Owner"] and first["Animal"] >= first["Owner"]
    assert first["Animal"] == first["Ownership"] == first["Animal history"]
    run_registry()
    assert counts() == first


@pytest.mark.django_db
def test_each_city_has_its_own_zip_and_addresses_are_unique_premises():
    run_registry()
    for slug, zip_code in (("north-branch", "55056"), ("glencoe", "55336")):
        city = Jurisdiction.objects.get(slug=slug)
        owners = Owner.objects.filter(jurisdiction=city)
        assert owners.count() >= 200
        assert set(owners.values_list("postal_code", flat=True)) == {zip_code}
        assert Premises.objects.filter(jurisdiction=city).count() == owners.count()
    assert all(
        p.startswith(("(651) 555-01", "(320) 555-01"))
        for p in Owner.objects.values_list("phone", flat=True)
    )


@pytest.mark.django_db
def test_vaccinations_are_mostly_current_with_some_lapsed():
    run_registry()
    today = timezone.localdate()
    total = RabiesVaccination.objects.count()
    current = RabiesVaccination.objects.filter(next_due_on__gte=today).count()
    assert 0.6 * total < current < 0.95 * total
    assert not RabiesVaccination.objects.filter(vaccinated_on__gt=today).exists()
    species = set(Animal.objects.values_list("species", flat=True))
    assert species == {"dog", "cat"}


@pytest.mark.django_db
def test_the_demo_resident_owns_two_north_branch_animals():
    run_registry()
    owner = Owner.objects.get(user__username="resident")
    assert owner.jurisdiction.slug == "north-branch"
    assert owner.animals.count() == 2
    assert all(a.vaccinations.exists() and a.ownerships.exists() for a in owner.animals.all())


def test_it_is_deterministic(north_branch):
    import random
    from datetime import date

    from demo.registry import PLANS, _animal, _owner, _small_city_addresses

    def households(seed):
        rng = random.Random(seed)
        plan = PLANS["north-branch"]
        owners = [_owner(rng, north_branch, plan, a) for a in _small_city_addresses(rng, plan)]
        animals = [_animal(rng, north_branch, o, None, date(2026, 3, 2), [0]) for o in owners]
        return (
            [(o.first_name, o.last_name, o.address_line, o.phone) for o in owners],
            [(a.name, a.breed, a.date_of_birth, a.microchip) for a in animals],
        )

    assert households("demo-north-branch") == households("demo-north-branch")
    assert households("demo-north-branch") != households("demo-glencoe")


@pytest.mark.slow
@pytest.mark.django_db
@time_machine.travel(datetime(2027, 1, 4, 9, 30, tzinfo=ZoneInfo("America/Chicago")), tick=False)
def test_early_in_january_it_loads_without_dating_anything_after_now():
    """Most of this year's season is still to come: nothing may be dated after now."""
    run()
    now = datetime(2027, 1, 4, 9, 30, tzinfo=ZoneInfo("America/Chicago"))
    assert not Receipt.objects.filter(issued_at__gt=now).exists()
    assert not License.objects.filter(issued_on__gt=now.date()).exists()
    assert License.objects.filter(expires_on__year=2026, status=LicenseStatus.EXPIRED).exists()
    numbers = sorted(
        Receipt.objects.filter(jurisdiction__slug="north-branch").values_list("number", flat=True)
    )
    assert numbers == list(range(1, len(numbers) + 1))
