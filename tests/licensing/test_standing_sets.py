"""The set-based twins of the one standing and vaccination answers:
``standing.animals_unlicensed`` keeps exactly the animals whose ``license_standing`` is
"license required" or "license expired", and ``vaccination.animals_vaccinated`` exactly
those whose ``vaccination_status`` counts as vaccinated, on every day asked, in both
cities; each costs one query whatever the number of animals. Rules: LIC-01 (NB Sec.
6-60, "over six months"), LIC-02 (exemptions), LIC-07 (expiry), LIC-16 (Glencoe 701
Subd. 2(D) deleted), LIC-18 (no cat license), RAB-01..06."""

from datetime import date

import pytest

from licensing.models import Animal, LicenseExemption, LicenseStatus
from licensing.models.licenses import ExemptionKind
from licensing.services.standing import (
    UNLICENSED,
    Standing,
    animals_unlicensed,
    latest_birth_day,
    license_age_day,
    license_standings,
    standing_prefetch,
    standing_rules,
)
from licensing.services.vaccination import (
    animals_vaccinated,
    statuses_for,
    vaccination_prefetch,
)
from tests.impound.helpers import owned_dog
from tests.licensing.license_factories import LicenseFactory
from tests.licensing.test_vaccination_status import DAYS, _zoo

pytestmark = pytest.mark.django_db

STANDING_DAYS = [
    date(2026, 1, 1),
    date(2026, 3, 2),
    date(2026, 7, 10),  # the puppy's six months: not yet "over"
    date(2026, 7, 11),
    date(2026, 12, 2),  # the next term's sales open (NB Sec. 6-65(c))
    date(2026, 12, 31),
    date(2027, 1, 1),
]


def _license(animal, clerk, *, year, status=LicenseStatus.ACTIVE):
    return LicenseFactory(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        owner=animal.owner,
        issued_by=clerk,
        term_start=date(year, 1, 1),
        expires_on=date(year, 12, 31),
        issued_on=date(year, 1, 5),
        status=status,
    )


def _exempt(animal, clerk, kind, *, starts_on, ends_on=None, citation=""):
    LicenseExemption.objects.create(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        kind=kind,
        starts_on=starts_on,
        ends_on=ends_on,
        evidence="Seen by the clerk",
        citation=citation,
        recorded_by=clerk,
    )


def _licensing_zoo(north_branch, glencoe, clerk) -> list:
    """Dogs and cats in every standing, at the edges of each period, in both cities."""
    made = []
    for city in (north_branch, glencoe):

        def dog(city=city, **fields):
            made.append(owned_dog(city, premises=None, **fields))
            return made[-1]

        dog()  # never licensed
        dog(date_of_birth=None, acquired_on=None)  # age unknown: required
        dog(date_of_birth=date(2026, 1, 10), acquired_on=None)  # six months on July 10
        dog(date_of_birth=date(2025, 8, 31), acquired_on=None)  # a month end
        dog(date_of_birth=date(2024, 2, 29), acquired_on=None)  # a leap day
        dog(species="cat")
        dog(species="ferret")
        _license(dog(), clerk, year=2026)
        _license(dog(), clerk, year=2025)  # lapsed on January 1
        _license(dog(), clerk, year=2025, status=LicenseStatus.EXPIRED)
        _license(dog(), clerk, year=2026, status=LicenseStatus.VOID)
        _license(dog(), clerk, year=2026, status=LicenseStatus.CLOSED)
        _license(dog(), clerk, year=2027)  # licensed ahead for the next term
        renewed = dog()
        _license(renewed, clerk, year=2025)
        _license(renewed, clerk, year=2026)
        dog(is_service_animal=True)
        visitor = dog()
        _exempt(visitor, clerk, ExemptionKind.TEMPORARY_VISITOR, starts_on=date(2026, 3, 1))
        ended = dog()
        _exempt(
            ended,
            clerk,
            ExemptionKind.TEMPORARY_VISITOR,
            starts_on=date(2026, 1, 1),
            ends_on=date(2026, 1, 30),
        )
        confined = dog(resident=False)
        _exempt(confined, clerk, ExemptionKind.NONRESIDENT_CONFINED, starts_on=date(2025, 1, 1))
        dead = dog()
        dead.mark_deceased(actor=clerk, on=date(2026, 2, 1))
    return made


def test_the_unlicensed_filter_agrees_with_the_standing_on_every_day(
    north_branch, glencoe, clerk, django_assert_num_queries
):
    animals = _licensing_zoo(north_branch, glencoe, clerk)
    seen = set()
    for day in STANDING_DAYS:
        fetched = standing_prefetch(Animal.objects.filter(pk__in=[a.pk for a in animals]))
        python = {
            pk: s.state
            for pk, s in license_standings(fetched, on=day).items()
            if s.state in UNLICENSED
        }
        rules = {city.pk: standing_rules(city, on=day) for city in (north_branch, glencoe)}
        with django_assert_num_queries(1):  # the rules read above: one query for the set
            sql = {
                a.pk: a.license_lapsed
                for a in animals_unlicensed(
                    Animal.objects.all(), [north_branch, glencoe], on=day, rules_by_city=rules
                )
            }
        assert set(sql) == set(python), day
        # "Expired" where an earlier license lapsed, "required" where none ever covered it.
        assert {pk for pk, lapsed in sql.items() if lapsed} == {
            pk for pk, state in python.items() if state == Standing.EXPIRED
        }, day
        seen |= {(pk, day) for pk in python}
    # Not a vacuous agreement: animals come and go as periods start and end.
    counts = [sum(1 for pk, _day in seen if pk == a.pk) for a in animals]
    assert sum(1 for n in counts if n == len(STANDING_DAYS)) >= 4
    assert sum(1 for n in counts if 0 < n < len(STANDING_DAYS)) >= 5
    assert counts.count(0) >= 20  # Glencoe's, cats, ferrets, exempt, licensed, dead
    glencoe_animals = {a.pk for a in animals if a.jurisdiction_id == glencoe.pk}
    assert not glencoe_animals & {pk for pk, _day in seen}  # LIC-16


def test_glencoe_licenses_no_animal_so_none_is_unlicensed(glencoe):
    owned_dog(glencoe)
    assert not animals_unlicensed(Animal.objects.all(), [glencoe], on=date(2026, 3, 2)).exists()


@pytest.mark.parametrize(
    "on",
    [date(2026, 7, 11), date(2026, 3, 1), date(2026, 2, 28), date(2028, 8, 30), date(2026, 8, 31)],
)
def test_the_latest_birth_day_is_the_last_one_past_the_license_age(north_branch, on):
    """NB "over six months" (Sec. 6-60): the day found is past the age and the next is
    not, at month ends and leap days too."""
    rules = standing_rules(north_branch, on=on)
    last = latest_birth_day(rules, on=on)
    assert license_age_day(last, rules) <= on
    assert license_age_day(date.fromordinal(last.toordinal() + 1), rules) > on


def test_the_vaccinated_filter_agrees_with_the_status(north_branch, glencoe, clerk):
    animals = _zoo(north_branch, glencoe, clerk)
    seen = set()
    for day in DAYS:
        fetched = list(vaccination_prefetch(Animal.objects.filter(pk__in=[a.pk for a in animals])))
        python = {pk for pk, s in statuses_for(fetched, on=day).items() if s.is_vaccinated}
        sql = set(
            animals_vaccinated(Animal.objects.all(), [north_branch, glencoe], on=day).values_list(
                "pk", flat=True
            )
        )
        assert sql == python, day
        seen |= {(pk, day) for pk in python}
    assert len({pk for pk, _day in seen}) >= 8
    counts = [sum(1 for pk, _day in seen if pk == a.pk) for a in animals]
    assert sum(1 for n in counts if 0 < n < len(DAYS)) >= 4  # vaccinations run out
    assert counts.count(0) >= 10  # never vaccinated, no vaccine, inactive
