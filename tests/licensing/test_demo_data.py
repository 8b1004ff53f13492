"""demo_data: realistic, deterministic and idempotent (running it twice adds nothing)."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from licensing.models import Animal, Owner, Ownership, Premises, RabiesVaccination
from ordinance.models import Jurisdiction

MODELS = (Owner, Premises, Animal, Ownership, RabiesVaccination)


def counts():
    return {m.__name__: m.objects.count() for m in MODELS} | {
        m.__name__ + " history": m.history.count() for m in MODELS}


def run(*args):
    out = StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_it_fills_both_cities_and_running_it_twice_adds_nothing():
    run()
    first = counts()
    assert 400 <= first["Owner"] and first["Animal"] >= first["Owner"]
    assert first["Animal"] == first["Ownership"] == first["Animal history"]
    run()
    assert counts() == first


@pytest.mark.django_db
def test_each_city_has_its_own_zip_and_addresses_are_unique_premises():
    run()
    for slug, zip_code in (("north-branch", "55056"), ("glencoe", "55336")):
        city = Jurisdiction.objects.get(slug=slug)
        owners = Owner.objects.filter(jurisdiction=city)
        assert owners.count() >= 200
        assert set(owners.values_list("postal_code", flat=True)) == {zip_code}
        assert Premises.objects.filter(jurisdiction=city).count() == owners.count()
    assert all(p.startswith(("(651) 555-01", "(320) 555-01"))
               for p in Owner.objects.values_list("phone", flat=True))


@pytest.mark.django_db
def test_vaccinations_are_mostly_current_with_some_lapsed():
    from django.utils import timezone

    run()
    today = timezone.localdate()
    total = RabiesVaccination.objects.count()
    current = RabiesVaccination.objects.filter(next_due_on__gte=today).count()
    assert 0.6 * total < current < 0.95 * total
    assert not RabiesVaccination.objects.filter(vaccinated_on__gt=today).exists()
    species = set(Animal.objects.values_list("species", flat=True))
    assert species == {"dog", "cat"}


@pytest.mark.django_db
def test_the_demo_resident_owns_two_north_branch_animals():
    run()
    owner = Owner.objects.get(user__username="resident")
    assert owner.jurisdiction.slug == "north-branch"
    assert owner.animals.count() == 2
    assert all(a.vaccinations.exists() and a.ownerships.exists() for a in owner.animals.all())


def test_it_is_deterministic(north_branch):
    import random
    from datetime import date

    from licensing.demo import PLANS, _animal, _owner, _small_city_addresses

    def households(seed):
        rng = random.Random(seed)
        plan = PLANS["north-branch"]
        owners = [_owner(rng, north_branch, plan, a) for a in _small_city_addresses(rng, plan)]
        animals = [_animal(rng, north_branch, o, None, date(2026, 3, 2), [0]) for o in owners]
        return ([(o.first_name, o.last_name, o.address_line, o.phone) for o in owners],
                [(a.name, a.breed, a.date_of_birth, a.microchip) for a in animals])

    assert households("demo-north-branch") == households("demo-north-branch")
    assert households("demo-north-branch") != households("demo-glencoe")


@pytest.mark.django_db
def test_size_adds_that_many_animals_once():
    run()
    before = Animal.objects.count()
    output = run("--size", "1500")
    assert Animal.objects.count() == before + 1500
    assert Animal.history.count() == Animal.objects.count()
    assert "bulk: 1500 animals added" in output
    run("--size", "1500")
    assert Animal.objects.count() == before + 1500
    assert User.objects.filter(username="resident").count() == 1
