"""Cruelty and care (RES-13): Glencoe's rules (Subds. 10(A), 10(B), 11) read from the
officer's observations, the incorporated state statutes (Subd. 9) named as blank until
the city sets their numbers, and North Branch's lack of care standards said, not guessed.
"""

from datetime import date

import pytest
from django.urls import reverse

from complaints.models import CareFacts
from complaints.readings import NO_RULE, NO_VIOLATION, OFFICER, VIOLATION, read_care, rulebook
from ordinance.amendments import rule_amend
from tests.complaints.helpers import at, take_complaint

pytestmark = pytest.mark.django_db
ON = date(2026, 6, 15)

GOOD_CARE = dict(
    kept_outdoors=True,
    shelter_and_bedding=True,
    enclosure_soiled=False,
    food_and_water=True,
    weather_protection=True,
    veterinary_care=False,
    abused=False,
    fight=False,
    in_vehicle=False,
)


def verdicts(reading):
    return {f.label: (f.verdict, f.citation) for f in reading.findings}


def test_glencoe_good_care_meets_every_rule_and_the_statute_is_left_to_the_officer(glencoe):
    reading = read_care(CareFacts(**GOOD_CARE), rulebook(glencoe, on=ON))
    found = verdicts(reading)
    assert found["Shelter and bedding"] == (NO_VIOLATION, "Glencoe 701 Subd. 10(A)")
    assert found["Enclosure"] == (NO_VIOLATION, "Glencoe 701 Subd. 10(B)")
    assert found["Food and water"] == (NO_VIOLATION, "Glencoe 701 Subd. 11")
    # Subd. 9 incorporates a statute whose number the ordinance leaves blank.
    statute = next(f for f in reading.findings if f.label == "State cruelty statute")
    assert statute.verdict == OFFICER and "blank" in statute.message
    assert statute.citation == "Glencoe 701 Subd. 9"
    assert reading.proposal == OFFICER


@pytest.mark.parametrize(
    "field, value, label",
    [
        ("shelter_and_bedding", False, "Shelter and bedding"),
        ("enclosure_soiled", True, "Enclosure"),
        ("food_and_water", False, "Food and water"),
        ("weather_protection", False, "Protection from the weather"),
        ("veterinary_care", True, "Veterinary care"),
        ("abused", True, "Abuse"),
        ("fight", True, "Animal fights"),
    ],
)
def test_glencoe_each_failing_observation_is_a_violation_of_its_subdivision(
    glencoe, field, value, label
):
    reading = read_care(CareFacts(**{**GOOD_CARE, field: value}), rulebook(glencoe, on=ON))
    assert reading.proposal == VIOLATION
    assert verdicts(reading)[label][0] == VIOLATION


def test_glencoe_shelter_rule_is_for_dogs_kept_outdoors_only(glencoe):
    book = rulebook(glencoe, on=ON)
    indoors = CareFacts(**{**GOOD_CARE, "kept_outdoors": False, "shelter_and_bedding": False})
    assert verdicts(read_care(indoors, book))["Shelter and bedding"][0] == NO_VIOLATION
    unknown = CareFacts(**{**GOOD_CARE, "kept_outdoors": None})
    assert verdicts(read_care(unknown, book))["Shelter and bedding"][0] == OFFICER


def test_glencoe_a_dog_in_a_vehicle_names_the_blank_vehicle_statute(glencoe):
    reading = read_care(CareFacts(**{**GOOD_CARE, "in_vehicle": True}), rulebook(glencoe, on=ON))
    assert verdicts(reading)["State statute on dogs in vehicles"][0] == OFFICER


def test_glencoe_once_the_city_sets_the_statute_the_reading_cites_it(glencoe, administrator):
    rule_amend(
        jurisdiction=glencoe,
        key="gl_statute_cruelty",
        value="343.21",
        effective_from=date(2026, 1, 1),
        ordinance_ref="Resolution 2026-04",
        actor=administrator,
    )
    reading = read_care(CareFacts(**GOOD_CARE), rulebook(glencoe, on=ON))
    statute = next(f for f in reading.findings if f.label == "State cruelty statute")
    assert "343.21" in statute.message


def test_north_branch_has_no_care_standards_and_says_so(north_branch):
    reading = read_care(CareFacts(**GOOD_CARE), rulebook(north_branch, on=ON))
    assert reading.proposal == NO_RULE
    assert "no care standards" in reading.findings[0].message


def test_the_officer_records_care_facts_on_a_cruelty_complaint(client_as, officer, glencoe):
    complaint = take_complaint(
        glencoe, officer, kind="cruelty", when=at(2026, 6, 15, 9, 0), narrative="Dog chained."
    )
    client = client_as(officer)
    url = reverse("complaints:facts", args=[complaint.pk])
    assert client.get(url).status_code == 200
    posted = {k: {True: "true", False: "false"}[v] for k, v in GOOD_CARE.items()}
    posted.update(shelter_and_bedding="false", observations="No doghouse; frozen water bowl.")
    response = client.post(url, posted)
    assert response.status_code == 302
    facts = CareFacts.objects.get(complaint=complaint)
    assert facts.shelter_and_bedding is False and facts.kept_outdoors is True
    page = client.get(complaint.get_absolute_url()).content.decode()
    assert "Glencoe 701 Subd. 10(A)" in page and "Kept outdoors without shelter" in page
