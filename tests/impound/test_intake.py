"""Intake (IMP-01, IMP-03, IMP-04, IMP-06, IMP-08)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from impound.models import CaseStatus, GateKind
from impound.services.intake import case_intake, impound_grounds
from kernel.models import NumberSeries
from ordinance.models import Event
from ordinance.refusals import Refused

from .factories import make_pound

CHICAGO = ZoneInfo("America/Chicago")
pytestmark = pytest.mark.django_db


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def stray(**extra):
    fields = dict(
        species="dog",
        breed="Labrador mix",
        sex="female",
        color="Black",
        approximate_age_months=24,
        seized_where="Hennepin Ave and 10th St",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St, Glencoe",
    )
    fields.update(extra)
    return fields


@pytest.mark.clock("2026-11-30T10:00")
def test_glencoe_stray_taken_in_the_wednesday_before_thanksgiving_is_held_to_december_3(
    glencoe, officer, pound
):
    case = case_intake(
        jurisdiction=glencoe,
        pound=pound,
        actor=officer,
        ground="dog_at_large",
        placed_at=at(2026, 11, 25, 14, 5),
        seized_on=date(2026, 11, 25),
        **stray(),
    )
    assert case.hold_ends_on == date(2026, 12, 3)
    assert "Glencoe 701 Subd. 13" in case.hold_basis
    assert case.status == CaseStatus.HELD
    assert case.ground_citation == "Glencoe 701 Subd. 13"
    assert Event.objects.for_object(case).filter(action="impound.case.taken_in").count() == 1


@pytest.mark.clock("2026-11-30T10:00")
def test_grounds_are_the_profile_codes_each_cited(north_branch, glencoe):
    nb = {g.code: g for g in impound_grounds(north_branch, on=date(2026, 11, 30))}
    assert nb["public_nuisance"].court_order and nb["sec_6_73_at_large"].court_order
    assert nb["unlicensed_at_large"].citation == "North Branch Sec. 6-68"
    gl = impound_grounds(glencoe, on=date(2026, 11, 30))
    assert [g.code for g in gl][0] == "no_identification_tag"
    assert not any(g.court_order for g in gl)


@pytest.mark.clock("2026-11-30T10:00")
def test_a_north_branch_cat_at_large_is_refused_with_the_blank_cat_rule(
    north_branch, officer, pound
):
    with pytest.raises(Refused) as caught:
        case_intake(
            jurisdiction=north_branch,
            pound=pound,
            actor=officer,
            ground="unlicensed_at_large",
            placed_at=at(2026, 11, 30, 9),
            seized_on=date(2026, 11, 30),
            **stray(species="cat"),
        )
    assert "North Branch Sec. 6-68" in caught.value.sections


@pytest.mark.clock("2026-11-30T10:00")
def test_a_sec_6_75_dog_opens_a_court_authorization_gate(north_branch, officer, pound):
    case = case_intake(
        jurisdiction=north_branch,
        pound=pound,
        actor=officer,
        ground="sec_6_73_at_large",
        placed_at=at(2026, 11, 30, 9),
        seized_on=date(2026, 11, 30),
        **stray(),
    )
    gate = case.gates.get()
    assert gate.kind == GateKind.COURT_AUTHORIZATION
    assert gate.citation == "North Branch Sec. 6-75"


@pytest.mark.clock("2026-11-30T10:00")
def test_glencoe_requires_who_brought_an_animal_three_months_or_older(glencoe, officer, pound):
    with pytest.raises(Refused) as caught:
        case_intake(
            jurisdiction=glencoe,
            pound=pound,
            actor=officer,
            ground="dog_at_large",
            placed_at=at(2026, 11, 30, 9),
            seized_on=date(2026, 11, 30),
            **stray(brought_by_name="", brought_by_address=""),
        )
    assert {r.field for r in caught.value.reasons} == {"brought_by_name", "brought_by_address"}
    assert "Glencoe 701 Subd. 13" in caught.value.sections


@pytest.mark.clock("2026-11-30T10:00")
def test_case_numbers_are_the_kernels_series_per_city_and_year(
    north_branch, glencoe, officer, pound
):
    def take_in(city, ground, when):
        return case_intake(
            jurisdiction=city,
            pound=pound,
            actor=officer,
            ground=ground,
            placed_at=when,
            seized_on=when.date(),
            **stray(),
        )

    first = take_in(glencoe, "dog_at_large", at(2026, 11, 25, 14, 5))
    second = take_in(glencoe, "dog_at_large", at(2026, 11, 26, 9, 0))
    other_city = take_in(north_branch, "unlicensed_at_large", at(2026, 11, 26, 9, 0))
    last_year = take_in(glencoe, "dog_at_large", at(2025, 12, 31, 9, 0))
    assert [first.number, second.number] == ["2026-0001", "2026-0002"]
    assert (other_city.number, last_year.number) == ("2026-0001", "2025-0001")
    series = NumberSeries.objects.get(jurisdiction=glencoe, series="impound", year=2026)
    assert series.next_number == 3
