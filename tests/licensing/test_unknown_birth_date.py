"""An animal whose birth date is unknown counts as past the age (DEF-01, KEN-01, LIC-01).

The premises limit counts adult dogs and cats (NB Sec. 6-28 "Adult animal", 6-29;
Glencoe 701 Subd. 4(A)); a dog of unknown age is not let through as a puppy, and the
clerk is told how many ages were assumed (``LimitCheck.unknown_ages``). The license age
(NB Sec. 6-60) is treated the same way. Every date is passed in, so the run's clock
does not matter.
"""

from datetime import date

import pytest

from licensing.models import License, Species
from licensing.services.assessment import license_assess
from licensing.services.licenses import license_issue, license_transfer
from licensing.services.limits import (
    is_adult,
    passes_age,
    premises_limit_check,
    premises_limit_status,
)
from licensing.services.registry import owner_premises
from licensing.services.standing import Standing, license_requirement
from ordinance.refusals import Refused
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import TagStockFactory

ON = date(2026, 3, 2)
ADULT = date(2020, 1, 1)
PUPPY = date(2025, 12, 1)  # three months old on ON: not counted anywhere


def _keep(city, premises, species, n, dob):
    return [
        AnimalFactory(jurisdiction=city, premises=premises, species=species, date_of_birth=dob)
        for _ in range(n)
    ]


@pytest.mark.parametrize("comparison", ["gte", "gt"])
def test_an_unknown_birth_date_passes_either_age_test(comparison):
    assert passes_age(None, months=6, comparison=comparison, on=ON)
    assert not passes_age(PUPPY, months=6, comparison=comparison, on=ON)


def test_is_adult_is_true_for_an_unknown_birth_date(north_branch, glencoe):
    for city in (north_branch, glencoe):
        animal = AnimalFactory.build(jurisdiction=city, date_of_birth=None)
        assert is_adult(animal, jurisdiction=city, on=ON)


def test_nb_a_fourth_dog_of_unknown_age_is_over_the_limit(north_branch):
    """NB Sec. 6-29: three adult dogs; a fourth of unknown age makes four."""
    premises = PremisesFactory(jurisdiction=north_branch)
    _keep(north_branch, premises, Species.DOG, 3, ADULT)
    puppy = AnimalFactory.build(jurisdiction=north_branch, premises=premises, date_of_birth=PUPPY)
    assert premises_limit_check(premises=premises, on=ON, adding=puppy).ok
    unknown = AnimalFactory.build(jurisdiction=north_branch, premises=premises, date_of_birth=None)
    check = premises_limit_check(premises=premises, on=ON, adding=unknown)
    assert not check.ok
    assert check.counts["dog"] == 4 and check.unknown_ages == 1
    assert "6-29" in check.citation


def test_nb_dogs_and_cats_of_unknown_age_already_kept_count(north_branch):
    premises = PremisesFactory(jurisdiction=north_branch)
    _keep(north_branch, premises, Species.DOG, 4, None)
    _keep(north_branch, premises, Species.CAT, 2, None)
    check = premises_limit_check(premises=premises, on=ON)
    assert not check.ok
    assert check.counts == {"dog": 4, "cat": 2, "total": 6} and check.unknown_ages == 6
    _, lines = premises_limit_status(premises=premises, on=ON)  # the animal and owner pages
    assert [(line.count, line.limit, line.over) for line in lines] == [(4, 3, True), (2, 3, False)]


def test_glencoe_dogs_and_cats_of_unknown_age_count(glencoe):
    """701 Subd. 4(A) counts animals "over the age of six months"; unknown ages count."""
    premises = PremisesFactory(jurisdiction=glencoe, postal_code="55336")
    _keep(glencoe, premises, Species.DOG, 2, ADULT)
    _keep(glencoe, premises, Species.CAT, 1, ADULT)
    _keep(glencoe, premises, Species.CAT, 1, None)
    assert premises_limit_check(premises=premises, on=ON).ok
    extra = AnimalFactory.build(jurisdiction=glencoe, species=Species.DOG, date_of_birth=None)
    check = premises_limit_check(premises=premises, on=ON, adding=extra)
    assert not check.ok and check.counts["dog"] == 3 and check.unknown_ages == 2


def test_the_counter_refuses_a_license_where_a_dog_of_unknown_age_fills_the_premises(north_branch):
    """The assessment's animal-limit check counts the unknown-age dogs already kept."""
    premises = PremisesFactory(jurisdiction=north_branch)
    _keep(north_branch, premises, Species.DOG, 1, ADULT)
    _keep(north_branch, premises, Species.DOG, 2, None)
    dog = AnimalFactory(jurisdiction=north_branch, premises=premises, date_of_birth=ADULT)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    checks = {c.label: c for c in license_assess(animal=dog, owner=dog.owner, on=ON).checks}
    assert checks["Animal limit"].status == "fail"


def test_a_transfer_of_a_dog_of_unknown_age_to_a_full_premises_is_refused(north_branch, clerk):
    """KEN-01 on a transfer (LIC-12): the dog's birth date was later found to be unknown."""
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=5)
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=ADULT)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    license = license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash").license
    dog.date_of_birth = None
    dog.save(update_fields=["date_of_birth"])
    new_owner = OwnerFactory(jurisdiction=north_branch)
    premises = owner_premises(new_owner)
    _keep(north_branch, premises, Species.DOG, 3, ADULT)
    with pytest.raises(Refused, match="kennel license is needed"):
        license_transfer(
            license=license, new_owner=new_owner, actor=clerk, on=date(2026, 4, 1), method="cash"
        )
    assert License.objects.get(pk=license.pk).owner_id == dog.owner_id


def test_a_dog_of_unknown_age_needs_a_license(north_branch):
    """LIC-01 (NB Sec. 6-60): treated as over the license age, and the clerk is told."""
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=None)
    need = license_requirement(dog, on=ON)  # the one standing service's answer
    assert need.state == Standing.REQUIRED
    assert "treated as over the license age" in need.reason
    assert "6-60" in need.citation
