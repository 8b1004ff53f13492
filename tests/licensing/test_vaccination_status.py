"""The one vaccination answer (licensing.services.vaccination): RAB-01..06, LIC-02.

North Branch: dogs and cats "older than six (6) months" (Sec. 6-77); a nonresident's dog
kept confined is exempt (Sec. 6-96(4)(b)). Glencoe: every dog, cat or ferret (the species
with a USDA-licensed vaccine, Subd. 20(A), (F)); a young animal within 30 days after the
Compendium's minimum age, blank until the city enters it (20(B)); a new arrival within
30 days (20(D)); revaccination within the vaccine's duration (20(C)).
"""

from datetime import date

import pytest
from django.test import override_settings

from licensing.models import AnimalStatus, LicenseExemption
from licensing.models.licenses import ExemptionKind
from licensing.services.vaccination import (
    Vaccination,
    statuses_for,
    vaccination_due,
    vaccination_prefetch,
    vaccination_rules,
    vaccination_status,
)
from ordinance.amendments import rule_amend
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import vaccinate

pytestmark = pytest.mark.django_db


def status(animal, on):
    return vaccination_status(animal, on=on)


# --- North Branch: "older than six (6) months" (Sec. 6-77) ---------------------------


@pytest.mark.parametrize(
    ("on", "state"),
    [
        (date(2026, 7, 1), Vaccination.TOO_YOUNG),
        (date(2026, 12, 15), Vaccination.TOO_YOUNG),  # six months exactly: not older
        (date(2026, 12, 16), Vaccination.OVERDUE),  # older than six months
    ],
)
def test_north_branch_requires_vaccination_only_once_older_than_six_months(north_branch, on, state):
    dog = owned_dog(north_branch, date_of_birth=date(2026, 6, 15), acquired_on=date(2026, 8, 1))
    answer = status(dog, on)
    assert answer.state == state
    assert answer.citation == "North Branch Sec. 6-77"
    assert answer.due_on == date(2026, 12, 15)


def test_the_too_young_reason_names_the_first_day_it_is_required(north_branch):
    dog = owned_dog(north_branch, date_of_birth=date(2026, 6, 15))
    answer = status(dog, date(2026, 9, 1))
    assert "Born Jun 15, 2026" in answer.reason
    assert "required from Dec 16, 2026" in answer.reason
    assert not answer.is_vaccinated and answer.in_order


def test_a_six_month_boundary_at_a_month_end(north_branch):
    """Born August 31: six months later is February 28 (calendar months, DEF-01); it is
    older than six months from March 1."""
    dog = owned_dog(north_branch, date_of_birth=date(2026, 8, 31))
    assert status(dog, date(2027, 2, 28)).state == Vaccination.TOO_YOUNG
    assert status(dog, date(2027, 3, 1)).state == Vaccination.OVERDUE


def test_an_adult_dog_with_no_vaccination_is_overdue_since_it_turned_six_months(north_branch):
    dog = owned_dog(north_branch, date_of_birth=date(2022, 5, 1))
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.OVERDUE
    assert answer.due_on == date(2022, 11, 1)
    assert "No rabies vaccination is on file" in answer.reason
    assert "Nov 1, 2022" in answer.reason
    assert not answer.in_order and answer.is_overdue


def test_a_dog_of_unknown_age_without_a_vaccination_is_overdue(north_branch):
    dog = owned_dog(north_branch, date_of_birth=None)
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.OVERDUE
    assert answer.citation == "North Branch Sec. 6-77"


def test_a_cat_in_north_branch_must_be_vaccinated(north_branch):
    cat = owned_dog(north_branch, species="cat", date_of_birth=date(2023, 1, 1))
    assert status(cat, date(2026, 12, 7)).state == Vaccination.OVERDUE
    vaccinate(cat, date(2026, 3, 1))
    assert status(cat, date(2026, 12, 7)).state == Vaccination.CURRENT


def test_a_ferret_in_north_branch_is_not_required(north_branch):
    ferret = owned_dog(north_branch, species="ferret", date_of_birth=date(2023, 1, 1))
    answer = status(ferret, date(2026, 12, 7))
    assert answer.state == Vaccination.NOT_REQUIRED
    assert answer.citation == "North Branch Sec. 6-77"
    assert answer.in_order and not answer.is_vaccinated


def test_north_branch_has_no_new_arrival_period(north_branch):
    """Sec. 6-77 has no grace for a new arrival (RAB-04 is Glencoe's)."""
    dog = owned_dog(north_branch, date_of_birth=date(2022, 5, 1), acquired_on=date(2026, 12, 1))
    assert status(dog, date(2026, 12, 7)).state == Vaccination.OVERDUE


# --- Vaccines: 1 and 3 years, the certificate's next due date (RAB-03) -----------------


def test_a_one_year_vaccine_covers_through_its_anniversary(north_branch):
    dog = owned_dog(north_branch)
    shot = vaccinate(dog, date(2026, 3, 10), years=1)
    assert vaccination_due(shot) == date(2027, 3, 10)
    on_due_day = status(dog, date(2027, 3, 10))
    assert on_due_day.state == Vaccination.DUE_SOON
    assert on_due_day.until == on_due_day.due_on == date(2027, 3, 10)
    assert on_due_day.vaccination == shot and on_due_day.is_vaccinated
    late = status(dog, date(2027, 3, 11))
    assert late.state == Vaccination.OVERDUE
    assert late.vaccination == shot
    assert "Mar 10, 2027" in late.reason
    assert late.citation == "North Branch Sec. 6-77"


def test_a_three_year_vaccine(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2025, 2, 28), years=3)
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.CURRENT
    assert answer.until == date(2028, 2, 28)
    assert "Vaccinated Feb 28, 2025" in answer.reason
    assert status(dog, date(2028, 2, 29)).state == Vaccination.OVERDUE


def test_the_certificates_next_due_date_wins_over_the_duration(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2026, 3, 10), years=3, next_due_on=date(2027, 3, 10))
    assert status(dog, date(2027, 3, 10)).state == Vaccination.DUE_SOON
    assert status(dog, date(2027, 3, 11)).state == Vaccination.OVERDUE


def test_the_latest_vaccination_counts_and_a_later_one_is_not_yet_given(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2025, 1, 5), years=1)
    newer = vaccinate(dog, date(2026, 1, 2), years=1)
    assert status(dog, date(2026, 6, 1)).vaccination == newer
    # On a date before the newer one, the older one is the answer (a past bite).
    assert status(dog, date(2025, 6, 1)).vaccination.vaccinated_on == date(2025, 1, 5)


@override_settings(RABIES_REMINDER_LEAD_DAYS=30)
def test_due_soon_within_the_lead_days(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2026, 3, 10), years=1)  # due March 10, 2027
    assert status(dog, date(2027, 2, 7)).state == Vaccination.CURRENT  # 31 days left
    assert status(dog, date(2027, 2, 8)).state == Vaccination.DUE_SOON  # 30 days left


@override_settings(RABIES_REMINDER_LEAD_DAYS=7)
def test_the_lead_days_are_a_setting(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2026, 3, 10), years=1)
    assert status(dog, date(2027, 3, 2)).state == Vaccination.CURRENT
    assert status(dog, date(2027, 3, 3)).state == Vaccination.DUE_SOON


def test_the_setting_is_read_from_the_environment_with_a_default_of_30():
    from django.conf import settings

    assert settings.RABIES_REMINDER_LEAD_DAYS == 30


def test_labels_and_str_carry_the_section(north_branch):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2026, 3, 10), years=1)
    answer = status(dog, date(2026, 6, 1))
    assert answer.label == "Vaccinated"
    assert answer.badge == "success"
    assert str(answer) == (
        "Vaccinated: Vaccinated Mar 10, 2026; due again by Mar 10, 2027. (North Branch Sec. 6-77)"
    )


# --- Inactive; exempt (LIC-02, Sec. 6-96(4)(b)) ------------------------------------------


def test_a_deceased_animal_is_inactive_from_its_death(north_branch, clerk):
    dog = owned_dog(north_branch)
    dog.mark_deceased(actor=clerk, on=date(2026, 10, 1))
    dog.refresh_from_db()
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.INACTIVE
    assert "Deceased" in answer.reason
    assert answer.in_order and not answer.is_vaccinated
    # A bite before its death is judged as it was then.
    assert status(dog, date(2026, 9, 30)).state == Vaccination.OVERDUE


def test_a_moved_out_animal_is_inactive(north_branch, clerk):
    dog = owned_dog(north_branch)
    dog.status = AnimalStatus.TRANSFERRED_OUT
    dog.status_changed_on = None
    assert status(dog, date(2026, 12, 7)).state == Vaccination.INACTIVE


def _exempt(animal, clerk, *, starts_on, ends_on=None, kind=ExemptionKind.NONRESIDENT_CONFINED):
    return LicenseExemption.objects.create(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        kind=kind,
        starts_on=starts_on,
        ends_on=ends_on,
        evidence="Kept in the owner's camper; owner lives in Duluth",
        recorded_by=clerk,
    )


def test_a_nonresidents_confined_dog_is_exempt_in_north_branch(north_branch, clerk):
    dog = owned_dog(north_branch, resident=False)
    _exempt(dog, clerk, starts_on=date(2026, 11, 1))
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.EXEMPT
    assert answer.citation == "North Branch Sec. 6-96(4)(b)"
    assert "Nonresident's dog kept confined since Nov 1, 2026" in answer.reason
    # Before the exemption was recorded it was owed.
    assert status(dog, date(2026, 10, 31)).state == Vaccination.OVERDUE


def test_an_ended_or_other_exemption_does_not_exempt_from_vaccination(north_branch, clerk):
    dog = owned_dog(north_branch, resident=False)
    _exempt(dog, clerk, starts_on=date(2026, 1, 1), ends_on=date(2026, 6, 30))
    _exempt(dog, clerk, starts_on=date(2026, 11, 1), kind=ExemptionKind.TEMPORARY_VISITOR)
    assert status(dog, date(2026, 12, 7)).state == Vaccination.OVERDUE


def test_a_vaccinated_exempt_dog_shows_its_vaccination(north_branch, clerk):
    dog = owned_dog(north_branch, resident=False)
    _exempt(dog, clerk, starts_on=date(2026, 11, 1))
    vaccinate(dog, date(2026, 11, 2))
    assert status(dog, date(2026, 12, 7)).state == Vaccination.CURRENT


def test_glencoe_has_no_nonresident_exemption(glencoe, clerk):
    dog = owned_dog(glencoe, resident=False, date_of_birth=date(2022, 5, 1), acquired_on=None)
    _exempt(dog, clerk, starts_on=date(2026, 11, 1))
    vaccinate(dog, date(2024, 1, 1))
    assert status(dog, date(2026, 12, 7)).state == Vaccination.OVERDUE


# --- Glencoe: the Compendium's minimum age (20(B)), new arrivals (20(D)), USDA (20(F)) ---


def test_glencoe_blank_minimum_age_makes_a_young_unvaccinated_animal_unknown(glencoe):
    pup = owned_dog(glencoe, date_of_birth=date(2026, 9, 1), acquired_on=date(2026, 9, 1))
    answer = status(pup, date(2026, 12, 7))
    assert answer.state == Vaccination.UNKNOWN
    assert answer.citation == "Glencoe 701 Subd. 20(B)"
    assert "has not entered the Compendium's minimum age" in answer.reason
    assert answer.due_on is None
    assert not answer.in_order and not answer.is_vaccinated


def test_the_blank_minimum_age_does_not_hide_a_lapsed_vaccination(glencoe):
    dog = owned_dog(glencoe, date_of_birth=date(2022, 5, 1), acquired_on=date(2022, 7, 15))
    vaccinate(dog, date(2025, 1, 5), years=1)
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.OVERDUE
    assert answer.citation == "Glencoe 701 Subd. 20(C)"


def test_glencoe_current_vaccination_cites_the_revaccination_rule(glencoe):
    dog = owned_dog(glencoe)
    vaccinate(dog, date(2026, 6, 1), years=1)
    answer = status(dog, date(2026, 12, 7))
    assert answer.state == Vaccination.CURRENT
    assert answer.citation == "Glencoe 701 Subd. 20(C)"


@pytest.fixture
def min_age_three_months(glencoe, administrator):
    rule_amend(
        jurisdiction=glencoe,
        key="compendium_min_age_months",
        value=3,
        effective_from=date(2026, 1, 1),
        ordinance_ref="Compendium of Animal Rabies Prevention and Control, 2026",
        actor=administrator,
    )


@pytest.mark.parametrize(
    ("on", "state"),
    [
        (date(2026, 11, 30), Vaccination.TOO_YOUNG),
        (date(2026, 12, 31), Vaccination.TOO_YOUNG),  # 3 months (Dec 1) + 30 days
        (date(2027, 1, 1), Vaccination.OVERDUE),
    ],
)
def test_glencoe_young_animal_due_30_days_after_the_minimum_age(
    glencoe, min_age_three_months, on, state
):
    pup = owned_dog(glencoe, date_of_birth=date(2026, 9, 1), acquired_on=date(2026, 9, 1))
    answer = status(pup, on)
    assert answer.state == state
    assert answer.due_on == date(2026, 12, 31)
    assert answer.citation == "Glencoe 701 Subd. 20(B)"


def test_glencoe_young_reason_names_the_minimum_age_and_the_due_date(glencoe, min_age_three_months):
    pup = owned_dog(glencoe, date_of_birth=date(2026, 9, 1), acquired_on=date(2026, 9, 1))
    reason = status(pup, date(2026, 10, 1)).reason
    assert "reaches the minimum age on Dec 1, 2026" in reason
    assert "to be vaccinated by Dec 31, 2026" in reason


def test_the_minimum_age_governs_only_from_when_it_was_entered(glencoe, administrator):
    rule_amend(
        jurisdiction=glencoe,
        key="compendium_min_age_months",
        value=3,
        effective_from=date(2026, 12, 1),
        ordinance_ref="Compendium 2026",
        actor=administrator,
    )
    pup = owned_dog(glencoe, date_of_birth=date(2026, 9, 1), acquired_on=date(2026, 9, 1))
    assert status(pup, date(2026, 11, 30)).state == Vaccination.UNKNOWN
    assert status(pup, date(2026, 12, 1)).state == Vaccination.TOO_YOUNG


@pytest.mark.parametrize(
    ("on", "state"),
    [
        (date(2026, 12, 1), Vaccination.NEW_ARRIVAL),
        (date(2026, 12, 31), Vaccination.NEW_ARRIVAL),  # 30 days after December 1
        (date(2027, 1, 1), Vaccination.OVERDUE),
    ],
)
def test_glencoe_new_arrival_within_30_days_of_arrival(glencoe, min_age_three_months, on, state):
    dog = owned_dog(glencoe, date_of_birth=date(2022, 5, 1), acquired_on=date(2026, 12, 1))
    answer = status(dog, on)
    assert answer.state == state
    if state == Vaccination.NEW_ARRIVAL:
        assert answer.due_on == date(2026, 12, 31)
        assert answer.citation == "Glencoe 701 Subd. 20(D)"
        assert "Acquired Dec 1, 2026" in answer.reason


def test_a_young_new_arrival_is_due_at_the_later_date(glencoe, min_age_three_months):
    """RAB-04: due = the later of arrival + 30 days and the young-animal date."""
    pup = owned_dog(glencoe, date_of_birth=date(2026, 10, 1), acquired_on=date(2026, 11, 15))
    # Young date: Jan 1 + 30 = Jan 31, 2027; arrival date: Dec 15, 2026.
    assert status(pup, date(2026, 12, 20)).state == Vaccination.TOO_YOUNG
    assert status(pup, date(2027, 1, 31)).state == Vaccination.TOO_YOUNG
    assert status(pup, date(2027, 2, 1)).state == Vaccination.OVERDUE
    older = owned_dog(glencoe, date_of_birth=date(2026, 8, 1), acquired_on=date(2026, 12, 20))
    # Young date: Nov 1 + 30 = Dec 1; arrival date: Jan 19, 2027.
    assert status(older, date(2027, 1, 19)).state == Vaccination.NEW_ARRIVAL
    assert status(older, date(2027, 1, 20)).state == Vaccination.OVERDUE


def test_an_animal_arriving_with_a_lapsed_vaccination_is_a_new_arrival(glencoe):
    dog = owned_dog(glencoe, date_of_birth=date(2020, 5, 1), acquired_on=date(2026, 12, 1))
    vaccinate(dog, date(2024, 1, 5), years=1)  # ran out January 5, 2025
    assert status(dog, date(2026, 12, 7)).state == Vaccination.NEW_ARRIVAL


def test_a_ferret_in_glencoe_must_be_vaccinated(glencoe):
    ferret = owned_dog(glencoe, species="ferret", date_of_birth=None, acquired_on=None)
    vaccinate(ferret, date(2026, 5, 1))
    assert status(ferret, date(2026, 12, 7)).state == Vaccination.CURRENT


def test_a_glencoe_other_pet_has_no_licensed_vaccine(glencoe):
    pet = owned_dog(glencoe, species="other", date_of_birth=None)
    vaccinate(pet, date(2026, 5, 1))  # whatever its history (Subd. 20(F))
    answer = status(pet, date(2026, 12, 7))
    assert answer.state == Vaccination.NO_VACCINE
    assert answer.citation == "Glencoe 701 Subd. 20(F)"
    assert not answer.is_vaccinated
    assert answer.in_order  # nothing can be owed: no vaccine exists


def test_an_other_pet_in_north_branch_is_not_required(north_branch):
    pet = owned_dog(north_branch, species="other")
    assert status(pet, date(2026, 12, 7)).state == Vaccination.NOT_REQUIRED


# --- Queries --------------------------------------------------------------------------


def test_statuses_for_many_animals_in_a_fixed_number_of_queries(
    north_branch, glencoe, django_assert_max_num_queries
):
    from licensing.models import Animal

    for i in range(6):
        dog = owned_dog(north_branch if i % 2 else glencoe)
        vaccinate(dog, date(2026, 6, i + 1))
    animals = list(vaccination_prefetch(Animal.objects.all()))
    with django_assert_max_num_queries(2):  # one rules query per city
        found = statuses_for(animals, on=date(2026, 12, 7))
    assert {s.state for s in found.values()} == {Vaccination.CURRENT}


def test_the_rules_of_a_city_are_read_at_once(north_branch, django_assert_num_queries):
    with django_assert_num_queries(1):
        rules = vaccination_rules(north_branch, on=date(2026, 12, 7))
    assert rules["vaccination_age_months"].value == 6
    assert "compendium_min_age_months" not in rules


# --- The database filter gives the same answer (the overdue list, the reminders) --------


def _zoo(north_branch, glencoe, clerk):
    """Animals in every state in both cities, at the edges of each period."""
    made = []
    for city in (north_branch, glencoe):

        def dog(city=city, **fields):
            made.append(owned_dog(city, **fields))
            return made[-1]

        dog(date_of_birth=None, acquired_on=None)
        dog(date_of_birth=date(2026, 6, 15), acquired_on=None)
        dog(date_of_birth=date(2026, 8, 31), acquired_on=date(2026, 11, 20))
        dog(date_of_birth=date(2026, 10, 1), acquired_on=date(2026, 11, 15))
        dog(date_of_birth=date(2020, 1, 1), acquired_on=date(2026, 12, 1))
        dog(species="cat", date_of_birth=date(2021, 1, 1), acquired_on=None)
        dog(species="ferret", date_of_birth=None, acquired_on=None)
        dog(species="other", date_of_birth=None, acquired_on=None)
        for given, years, next_due in (
            (date(2025, 12, 7), 1, None),
            (date(2025, 12, 6), 1, None),
            (date(2024, 2, 29), 3, None),
            (date(2026, 1, 10), 1, None),
            (date(2026, 1, 3), 3, date(2027, 1, 3)),
            (date(2025, 6, 1), 1, date(2026, 12, 31)),
        ):
            vaccinate(
                dog(date_of_birth=date(2020, 5, 1), acquired_on=None),
                given,
                years=years,
                next_due_on=next_due,
            )
        lapsed_arrival = dog(date_of_birth=date(2019, 1, 1), acquired_on=date(2026, 11, 25))
        vaccinate(lapsed_arrival, date(2024, 1, 5))
        superseded = dog(date_of_birth=date(2019, 1, 1), acquired_on=None)
        vaccinate(superseded, date(2023, 1, 5), years=3)
        vaccinate(superseded, date(2026, 3, 1), years=1, next_due_on=date(2026, 12, 1))
        later = dog(date_of_birth=date(2019, 1, 1), acquired_on=None)
        vaccinate(later, date(2027, 1, 2))  # given after some of the dates asked about
        dead = dog()
        dead.mark_deceased(actor=clerk, on=date(2026, 12, 10))
        gone = dog()
        gone.mark_moved_out(actor=clerk, on=date(2026, 11, 1))
        nonresident = dog(resident=False, date_of_birth=date(2020, 1, 1), acquired_on=None)
        _exempt(nonresident, clerk, starts_on=date(2026, 12, 1), ends_on=date(2026, 12, 20))
        lapsed_exempt = dog(resident=False, date_of_birth=date(2020, 1, 1), acquired_on=None)
        _exempt(lapsed_exempt, clerk, starts_on=date(2026, 1, 1))
        vaccinate(lapsed_exempt, date(2025, 1, 1))
    return made


DAYS = [
    date(2026, 12, 1),
    date(2026, 12, 7),
    date(2026, 12, 16),
    date(2027, 1, 1),
    date(2027, 1, 4),
    date(2027, 2, 28),
    date(2027, 3, 1),
]


def _compare(north_branch, glencoe, animals, *, due_soon):
    from licensing.models import Animal
    from licensing.services.vaccination import animals_owing

    wanted = {Vaccination.OVERDUE, Vaccination.DUE_SOON} if due_soon else {Vaccination.OVERDUE}
    seen = set()
    for day in DAYS:
        fetched = list(vaccination_prefetch(Animal.objects.filter(pk__in=[a.pk for a in animals])))
        python = {pk for pk, s in statuses_for(fetched, on=day).items() if s.state in wanted}
        sql = set(
            animals_owing(
                Animal.objects.all(), [north_branch, glencoe], on=day, due_soon=due_soon
            ).values_list("pk", flat=True)
        )
        assert sql == python, day
        seen |= {(pk, day) for pk in python}
    # Not a vacuous agreement: many animals owe on some days and not on others.
    assert len({pk for pk, _day in seen}) >= 12
    days_owing = [sum(1 for pk, _day in seen if pk == a.pk) for a in animals]
    assert sum(1 for n in days_owing if 0 < n < len(DAYS)) >= 6  # periods start and end
    assert days_owing.count(0) >= 6  # not required, no vaccine, inactive, current


@pytest.mark.parametrize("due_soon", [False, True])
def test_the_database_filter_agrees_with_the_status(north_branch, glencoe, clerk, due_soon):
    _compare(north_branch, glencoe, _zoo(north_branch, glencoe, clerk), due_soon=due_soon)


def test_the_database_filter_agrees_once_the_minimum_age_is_set(
    north_branch, glencoe, clerk, min_age_three_months
):
    _compare(north_branch, glencoe, _zoo(north_branch, glencoe, clerk), due_soon=True)
