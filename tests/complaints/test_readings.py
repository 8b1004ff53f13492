"""The readings at their edges, for both cities, with the profiles' own values.

rules.md RES-02 (6-foot leash; Glencoe 20 ft), RES-03 (Glencoe's two tests), RES-05
(North Branch >= 10 min continuous; Glencoe > 7 min continuous, or > 60 min intermittent
heard at >= 100 ft), RES-09 (litter).
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from complaints.models import (
    BarkingFacts,
    BarkingPattern,
    LitterFacts,
    LitterPlace,
    Location,
    Restraint,
    RestraintFacts,
)
from complaints.readings import (
    NO_RULE,
    NO_VIOLATION,
    OFFICER,
    VIOLATION,
    read_barking,
    read_litter,
    read_restraint,
    rulebook,
)

START = datetime(2026, 6, 15, 22, 0, tzinfo=ZoneInfo("America/Chicago"))


@pytest.fixture
def nb_book(north_branch):
    return rulebook(north_branch, on=START.date())


@pytest.fixture
def gl_book(glencoe):
    return rulebook(glencoe, on=START.date())


def barking(pattern=BarkingPattern.CONTINUOUS, *, seconds, **extra):
    fields = {"audible_off_premises": True, "distance_ft": None, **extra}
    return BarkingFacts(
        started_at=START,
        ended_at=START + timedelta(seconds=seconds),
        pattern=pattern,
        **fields,
    )


def restraint(location, how, **extra):
    return RestraintFacts(location=location, restraint=how, **extra)


# --- Barking: North Branch Sec. 6-67 (>= 10 minutes continuous, off the premises) -------


@pytest.mark.parametrize(
    "seconds, expected",
    [(7 * 60, NO_VIOLATION), (7 * 60 + 30, NO_VIOLATION), (599, NO_VIOLATION), (600, VIOLATION)],
)
def test_north_branch_continuous_barking_is_a_nuisance_from_ten_minutes(nb_book, seconds, expected):
    reading = read_barking(barking(seconds=seconds), nb_book)
    assert reading.proposal == expected
    assert reading.findings[0].citation == "North Branch Sec. 6-67"


def test_north_branch_barking_must_be_heard_off_the_premises(nb_book):
    reading = read_barking(barking(seconds=15 * 60, audible_off_premises=False), nb_book)
    assert reading.proposal == NO_VIOLATION
    assert "off the owner's or caretaker's premises" in reading.findings[0].message


def test_north_branch_has_no_intermittent_test_and_says_so(nb_book):
    reading = read_barking(
        barking(BarkingPattern.INTERMITTENT, seconds=90 * 60, distance_ft=150), nb_book
    )
    assert reading.proposal == OFFICER
    assert "sets no length for intermittent barking" in reading.findings[0].message


def test_north_branch_has_no_barking_exceptions(nb_book):
    reading = read_barking(barking(seconds=20 * 60, harassment=True), nb_book)
    assert reading.proposal == VIOLATION
    assert any(f.verdict == NO_RULE for f in reading.findings)


# --- Barking: Glencoe Subd. 5 (> 7 min continuous; > 60 min intermittent at >= 100 ft) ---


@pytest.mark.parametrize(
    "seconds, expected",
    [(7 * 60, NO_VIOLATION), (7 * 60 + 1, VIOLATION), (10 * 60, VIOLATION)],
)
def test_glencoe_continuous_barking_must_last_more_than_seven_minutes(gl_book, seconds, expected):
    reading = read_barking(barking(seconds=seconds), gl_book)
    assert reading.proposal == expected
    assert reading.findings[0].citation == "Glencoe 701 Subd. 5"


@pytest.mark.parametrize(
    "seconds, feet, expected",
    [
        (60 * 60, 150, NO_VIOLATION),  # exactly an hour: not "more than one hour"
        (60 * 60 + 1, 150, VIOLATION),
        (61 * 60, 99, NO_VIOLATION),  # heard from 99 feet: short of 100
        (61 * 60, 100, VIOLATION),  # "from a distance of 100 feet or more"
        (61 * 60, None, OFFICER),  # distance not recorded
    ],
)
def test_glencoe_intermittent_barking_edges(gl_book, seconds, feet, expected):
    facts = barking(BarkingPattern.INTERMITTENT, seconds=seconds, distance_ft=feet)
    assert read_barking(facts, gl_book).proposal == expected


@pytest.mark.parametrize("exception", ["harassment", "injury", "trespass"])
def test_glencoe_exceptions_make_it_no_violation(gl_book, exception):
    reading = read_barking(barking(seconds=20 * 60, **{exception: True}), gl_book)
    assert reading.proposal == NO_VIOLATION
    assert reading.findings[-1].citation == "Glencoe 701 Subd. 5"


# --- Restraint: North Branch Sec. 6-28 (six-foot leash), Sec. 6-66 (electronic device) ---


@pytest.mark.parametrize(
    "feet, expected", [(6, NO_VIOLATION), (7, VIOLATION), (10, VIOLATION), (None, OFFICER)]
)
def test_north_branch_leash_in_a_park_is_six_feet_at_most(nb_book, feet, expected):
    facts = restraint(Location.PARK, Restraint.LEASH_HELD, leash_length_ft=feet)
    reading = read_restraint(facts, nb_book)
    assert reading.proposal == expected
    assert reading.findings[0].citation == 'North Branch Sec. 6-28 ("Running at large")'


def test_north_branch_long_leash_on_the_owners_lot_is_not_the_public_place_rule(nb_book):
    facts = restraint(Location.OWN_PREMISES, Restraint.LEASH_TIED, leash_length_ft=20)
    assert read_restraint(facts, nb_book).proposal == NO_VIOLATION


def test_north_branch_unrestrained_dog_on_the_street_is_running_at_large(nb_book):
    assert read_restraint(restraint(Location.STREET, Restraint.NONE), nb_book).proposal == VIOLATION
    voice = restraint(Location.SCHOOL_GROUNDS, Restraint.VOICE)
    assert read_restraint(voice, nb_book).proposal == VIOLATION


@pytest.mark.parametrize("where", [Location.PARK, Location.STREET, Location.OWN_PREMISES])
def test_north_branch_electronic_collar_is_never_classified(nb_book, where):
    reading = read_restraint(restraint(where, Restraint.ELECTRONIC), nb_book)
    assert reading.proposal == OFFICER
    assert "North Branch Sec. 6-66" in reading.findings[0].message
    assert "Sec. 6-28" in reading.findings[0].message


# --- Restraint: Glencoe Subd. 1(O)(1)-(5) beside Subd. 3 --------------------------------


def test_glencoe_ten_foot_leash_with_nobody_near_passes_both_tests(gl_book):
    facts = restraint(
        Location.PARK,
        Restraint.LEASH_HELD,
        leash_length_ft=10,
        nearest_ft=40,
        handler_present=True,
        handler_capable=True,
    )
    reading = read_restraint(facts, gl_book)
    assert reading.proposal == NO_VIOLATION and not reading.conflict
    citations = [f.citation for f in reading.findings]
    assert citations == ["Glencoe 701 Subd. 1(O)(1)-(5)", "Glencoe 701 Subd. 3"]


@pytest.mark.parametrize("nearest, restrained", [(20, False), (21, True)])
def test_glencoe_leash_must_be_shortened_to_six_feet_within_twenty_feet(
    gl_book, nearest, restrained
):
    facts = restraint(Location.PARK, Restraint.LEASH_HELD, leash_length_ft=10, nearest_ft=nearest)
    under = read_restraint(facts, gl_book).findings[0]
    assert under.verdict == (NO_VIOLATION if restrained else VIOLATION)


def test_glencoe_six_foot_leash_is_under_restraint_whoever_is_near(gl_book):
    facts = restraint(Location.PARK, Restraint.LEASH_HELD, leash_length_ft=6, nearest_ft=2)
    assert read_restraint(facts, gl_book).findings[0].verdict == NO_VIOLATION


def test_glencoe_voice_control_on_the_owners_land_is_a_conflict_for_the_officer(gl_book):
    """rules.md RES-03: passes Subd. 1(O)(5), fails Subd. 3."""
    facts = restraint(
        Location.OWN_PREMISES,
        Restraint.VOICE,
        handler_present=True,
        handler_capable=True,
        obedient=True,
    )
    reading = read_restraint(facts, gl_book)
    assert reading.conflict and reading.proposal == OFFICER
    assert [f.verdict for f in reading.findings[:2]] == [NO_VIOLATION, VIOLATION]


def test_glencoe_unrestrained_dog_fails_both_tests(gl_book):
    reading = read_restraint(restraint(Location.STREET, Restraint.NONE), gl_book)
    assert reading.proposal == VIOLATION and not reading.conflict


def test_glencoe_dog_in_a_vehicle_passes_both(gl_book):
    reading = read_restraint(restraint(Location.VEHICLE, Restraint.VEHICLE), gl_book)
    assert reading.proposal == NO_VIOLATION


# --- Litter: North Branch Sec. 6-76, Glencoe Subd. 2(B) -----------------------------------


def test_north_branch_cleanup_applies_on_the_owners_own_property(nb_book):
    facts = LitterFacts(place=LitterPlace.OWN_PROPERTY, cleaned_up=False)
    reading = read_litter(facts, nb_book)
    assert reading.proposal == VIOLATION
    assert reading.findings[0].citation == "North Branch Sec. 6-76"
    assert reading.findings[1].verdict == NO_RULE  # no removal-materials rule


def test_glencoe_cleanup_is_off_the_owners_property_only(gl_book):
    facts = LitterFacts(place=LitterPlace.OWN_PROPERTY, cleaned_up=False, carrying_materials=True)
    assert read_litter(facts, gl_book).proposal == NO_VIOLATION


def test_glencoe_custodian_must_carry_removal_materials(gl_book):
    facts = LitterFacts(place=LitterPlace.PARK, cleaned_up=True, carrying_materials=False)
    reading = read_litter(facts, gl_book)
    assert reading.proposal == VIOLATION
    assert reading.findings[1].citation == "Glencoe 701 Subd. 2(B)"
    unknown = LitterFacts(place=LitterPlace.PARK, cleaned_up=True, carrying_materials=None)
    assert read_litter(unknown, gl_book).proposal == OFFICER


def test_a_city_without_the_rules_gets_no_guess():
    empty = {}
    assert read_litter(LitterFacts(place=LitterPlace.PARK), empty).proposal == NO_RULE
    assert read_restraint(restraint(Location.PARK, Restraint.NONE), empty).proposal == NO_RULE
    assert read_barking(barking(seconds=3600), empty).proposal == NO_RULE
