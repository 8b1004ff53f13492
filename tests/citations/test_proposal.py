"""Violation codes per city and the charge class proposed from prior adjudicated
violations of the dog, owner and address (FEE-15, RES-06)."""

from decimal import Decimal

import pytest

from citations.models import ChargeClass
from citations.services.violations import violation_code, violation_codes
from ordinance.refusals import Refused
from tests.impound.helpers import owned_dog
from tests.licensing.factories import AnimalFactory

from .helpers import NOW, adjudicate, at, cite

pytestmark = pytest.mark.django_db
PETTY, MISD = ChargeClass.PETTY_MISDEMEANOR, ChargeClass.MISDEMEANOR


def test_north_branch_article_ii_is_a_petty_misdemeanor_under_sec_6_27(north_branch):
    codes = violation_codes(north_branch, on=NOW.date())
    assert {c.charge_class for c in codes} == {PETTY}
    assert {c.class_citation for c in codes} == {"North Branch Sec. 6-27"}
    assert violation_code(north_branch, "feces", on=NOW.date()).citation == "North Branch Sec. 6-76"
    assert all(c.fine_cap is None for c in codes)


def test_glencoe_is_a_misdemeanor_unless_noted(glencoe):
    codes = {c.code: c for c in violation_codes(glencoe, on=NOW.date())}
    assert codes["at_large"].charge_class == MISD
    assert codes["at_large"].class_citation == "Glencoe 701 Subd. 18"
    assert codes["not_vaccinated"].class_citation == "Glencoe 701 Subd. 28"
    assert codes["wild_animal"].class_citation == "Glencoe 701 Subd. 36"
    assert (codes["feces"].charge_class, codes["feces"].citation) == (
        PETTY,
        "Glencoe 701 Subd. 2(B)",
    )
    assert codes["barking"].charge_class == PETTY
    assert codes["barking"].repeat_class == MISD
    # The $300 cap belongs to Subd. 26 only.
    capped = {code: c.fine_cap for code, c in codes.items() if c.fine_cap is not None}
    assert capped == {"sterilization": Decimal("300.00")}
    assert codes["sterilization"].fine_cap_citation == "Glencoe 701 Subd. 26"


@pytest.mark.parametrize("priors,expected", [(0, PETTY), (1, MISD), (2, MISD)])
def test_a_glencoe_barking_dog_is_petty_the_first_time_then_misdemeanor(
    glencoe, officer, priors, expected
):
    dog = owned_dog(glencoe)
    for month in range(1, priors + 1):
        earlier = cite(glencoe, officer, dog, "barking", when=at(2026, month, 5, 22))
        adjudicate(earlier, officer, when=at(2026, month, 20, 9))
    citation = cite(glencoe, officer, dog, "barking")
    assert citation.proposed_class == expected == citation.charge_class
    assert (citation.prior_animal, citation.prior_owner, citation.prior_address) == (
        priors,
        priors,
        priors,
    )
    assert citation.prior_same_code == priors
    assert f"{priors} of the dog" in citation.proposal_basis


@pytest.mark.parametrize("priors", [0, 1, 2])
def test_north_branch_proposes_petty_misdemeanor_whatever_the_priors(north_branch, officer, priors):
    dog = owned_dog(north_branch)
    for month in range(1, priors + 1):
        earlier = cite(north_branch, officer, dog, "barking", when=at(2026, month, 5, 22))
        adjudicate(earlier, officer, when=at(2026, month, 20, 9))
    citation = cite(north_branch, officer, dog, "barking")
    assert citation.proposed_class == PETTY
    assert citation.prior_animal == priors
    assert citation.charge_class_citation == "North Branch Sec. 6-27"


def test_only_adjudicated_violations_before_this_one_count(glencoe, officer):
    dog = owned_dog(glencoe)
    cite(glencoe, officer, dog, "barking", when=at(2026, 2, 5, 22))  # still issued
    dismissed = cite(glencoe, officer, dog, "barking", when=at(2026, 3, 5, 22))
    from citations.services.status import citation_status_change

    citation_status_change(
        citation=dismissed, status="dismissed", on=at(2026, 3, 20).date(), actor=officer
    )
    citation = cite(glencoe, officer, dog, "barking")
    assert citation.prior_animal == 0 and citation.proposed_class == PETTY


def test_priors_are_counted_for_the_owner_and_the_address_separately(glencoe, officer):
    dog = owned_dog(glencoe)
    other_dog = AnimalFactory(jurisdiction=glencoe, owner=dog.owner, premises=dog.premises)
    earlier = cite(glencoe, officer, other_dog, "at_large", when=at(2026, 2, 5, 9))
    adjudicate(earlier, officer, when=at(2026, 2, 20, 9))
    citation = cite(glencoe, officer, dog, "barking")
    assert (citation.prior_animal, citation.prior_owner, citation.prior_address) == (0, 1, 1)
    assert citation.prior_same_code == 0 and citation.proposed_class == PETTY


def test_another_class_than_the_proposed_needs_a_reason(glencoe, officer):
    dog = owned_dog(glencoe)
    with pytest.raises(Refused) as refused:
        cite(glencoe, officer, dog, "barking", charge_class=MISD)
    assert refused.value.checks[0].field == "class_reason"
    assert "Petty misdemeanor" in str(refused.value)
    citation = cite(
        glencoe,
        officer,
        dog,
        "barking",
        charge_class=MISD,
        class_reason="Prior conviction in 2025.",
    )
    assert (citation.proposed_class, citation.charge_class) == (PETTY, MISD)
    assert citation.class_reason == "Prior conviction in 2025."
