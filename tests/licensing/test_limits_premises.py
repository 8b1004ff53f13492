"""KEN-01 animal limits: NB 3 adult dogs and 3 adult cats (>= 6 months); GL 2 + 2,
total 4 (> 6 months)."""

from datetime import date

import pytest

from licensing.models import KennelLicense, KennelStatus, Species
from licensing.services.licenses import license_issue
from licensing.services.limits import premises_limit_check
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, PremisesFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

ON = date(2026, 1, 15)


def animals(city, premises, species, n, dob=date(2020, 1, 1)):
    return [
        AnimalFactory(jurisdiction=city, premises=premises, species=species, date_of_birth=dob)
        for _ in range(n)
    ]


def test_nb_three_dogs_ok_fourth_refused(north_branch, clerk):
    premises = PremisesFactory(jurisdiction=north_branch)
    dogs = animals(north_branch, premises, Species.DOG, 4)
    check = premises_limit_check(premises=premises, on=ON)
    assert not check.ok and check.counts["dog"] == 4 and "6-29" in check.citation
    dogs[3].status = "deceased"
    dogs[3].save()
    assert premises_limit_check(premises=premises, on=ON).ok


def test_nb_counts_at_six_months_exactly_gl_only_after(north_branch, glencoe):
    nb = PremisesFactory(jurisdiction=north_branch)
    animals(north_branch, nb, Species.DOG, 3)
    animals(north_branch, nb, Species.DOG, 1, dob=date(2025, 7, 15))  # six months on ON
    assert not premises_limit_check(premises=nb, on=ON).ok  # "gte" (Sec. 6-28)
    gl = PremisesFactory(jurisdiction=glencoe, postal_code="55336")
    animals(glencoe, gl, Species.DOG, 2)
    animals(glencoe, gl, Species.DOG, 1, dob=date(2025, 7, 15))
    assert premises_limit_check(premises=gl, on=ON).ok  # "gt" (Subd. 4(A))
    assert not premises_limit_check(premises=gl, on=date(2026, 1, 16)).ok


def test_cats_count_separately_nb(north_branch):
    premises = PremisesFactory(jurisdiction=north_branch)
    animals(north_branch, premises, Species.DOG, 3)
    animals(north_branch, premises, Species.CAT, 3)
    assert premises_limit_check(premises=premises, on=ON).ok
    animals(north_branch, premises, Species.CAT, 1)
    check = premises_limit_check(premises=premises, on=ON)
    assert not check.ok and check.counts["cat"] == 4


def test_glencoe_two_plus_two(glencoe):
    premises = PremisesFactory(jurisdiction=glencoe, postal_code="55336")
    animals(glencoe, premises, Species.DOG, 2)
    animals(glencoe, premises, Species.CAT, 2)
    assert premises_limit_check(premises=premises, on=ON).ok
    extra = AnimalFactory.build(
        jurisdiction=glencoe, species=Species.CAT, date_of_birth=date(2020, 1, 1)
    )
    assert not premises_limit_check(premises=premises, on=ON, adding=extra).ok


def test_license_for_the_fourth_dog_refused_unless_kennel(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    premises = PremisesFactory(jurisdiction=north_branch)
    dogs = animals(north_branch, premises, Species.DOG, 4)
    RabiesVaccinationFactory(animal=dogs[3], vaccinated_on=date(2025, 6, 1))
    with pytest.raises(Refused, match="kennel license is needed"):
        license_issue(animal=dogs[3], owner=dogs[3].owner, actor=clerk, on=ON, method="cash")
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        number="K-1",
        owner=dogs[3].owner,
        premises=premises,
        status=KennelStatus.ACTIVE,
        applied_on=ON,
        issued_on=ON,
        expires_on=date(2026, 12, 31),
    )
    result = license_issue(animal=dogs[3], owner=dogs[3].owner, actor=clerk, on=ON, method="cash")
    assert result.license.pk
