"""Hold and sterilization sweeps run twice, and after a week down, act once per case
(IMP-04, IMP-11, IMP-12)."""

from datetime import date

import pytest
import time_machine

from impound.models import AgreementStatus, CaseStatus
from impound.services.dispositions import Adoption, Judgement, case_adopt
from impound.sweeps import (
    sweep_holds_end,
    sweep_sterilization_overdue,
    upcoming_holds_ending,
    upcoming_sterilization_due,
)
from ordinance.deadlines import registered_sweeps
from ordinance.models import Event

from .factories import make_pound
from .helpers import at, take_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def test_the_sweeps_are_registered():
    assert {"impound.holds_end", "impound.sterilization_overdue"} <= set(registered_sweeps())


def test_a_hold_ending_before_thanksgiving_runs_through_its_last_day_then_once(
    north_branch, officer, pound
):
    # Wednesday Nov 18: five business days are Nov 19, 20, 23, 24, 25 (Thanksgiving,
    # Thursday Nov 26, is a Minnesota holiday and comes after).
    case = take_in(north_branch, pound, officer, at(2026, 11, 18, 9, 30), "unlicensed_at_large")
    assert case.hold_ends_on == date(2026, 11, 25)

    on_last_day = sweep_holds_end(now=at(2026, 11, 25, 23, 59))
    assert on_last_day.applied == 0
    case.refresh_from_db()
    assert case.status == CaseStatus.HELD

    first = sweep_holds_end(now=at(2026, 11, 26, 0, 5))  # Thanksgiving morning
    second = sweep_holds_end(now=at(2026, 11, 26, 6, 0))  # the same day again
    assert (first.applied, second.applied) == (1, 0)
    case.refresh_from_db()
    assert case.status == CaseStatus.AVAILABLE and case.available_on == date(2026, 11, 26)
    assert Event.objects.for_object(case).filter(action="impound.case.available").count() == 1


def test_after_a_week_down_the_hold_sweep_catches_up_once_per_case(
    north_branch, glencoe, officer, pound
):
    cases = [
        take_in(north_branch, pound, officer, at(2026, 11, 16, 10), "unlicensed_at_large"),
        take_in(north_branch, pound, officer, at(2026, 11, 18, 10), "unlicensed_at_large"),
        take_in(glencoe, pound, officer, at(2026, 11, 25, 14, 5), "dog_at_large"),
    ]
    late = take_in(north_branch, pound, officer, at(2026, 12, 1, 10), "unlicensed_at_large")
    # Beat was down from Nov 23 to Dec 7: one run applies each ended hold once.
    first = sweep_holds_end(now=at(2026, 12, 7, 8))
    again = sweep_holds_end(now=at(2026, 12, 7, 8, 5))
    assert (first.applied, again.applied) == (3, 0)
    for case in cases:
        case.refresh_from_db()
        assert case.status == CaseStatus.AVAILABLE and case.available_on == date(2026, 12, 7)
        assert Event.objects.for_object(case).filter(action="impound.case.available").count() == 1
    late.refresh_from_db()
    assert late.status == CaseStatus.HELD


def test_upcoming_names_the_hold_end_with_its_section(glencoe, officer, pound):
    case = take_in(glencoe, pound, officer, at(2026, 11, 25, 14, 5), "dog_at_large")
    found = list(
        upcoming_holds_ending(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 11, 30), end=date(2026, 12, 7)
        )
    )
    assert [(d.due, d.subject, d.citation) for d in found] == [
        (date(2026, 12, 3), case.number, case.hold_citation)
    ]
    assert found[0].consequence == "available for disposition"
    assert "Glencoe 701 Subd. 13" in found[0].citation


def _adopt_nb_female(north_branch, officer, pound, when):
    case = take_in(north_branch, pound, officer, when, "unlicensed_at_large")
    sweep_holds_end(now=at(2026, 12, 31, 8))
    case.refresh_from_db()
    adopted_on = case.available_on
    with time_machine.travel(at(adopted_on.year, adopted_on.month, adopted_on.day, 10), tick=False):
        case_adopt(
            case=case,
            actor=officer,
            adoption=Adoption(
                adopter_name="Robin Adopter",
                adopter_address="5 Oak St, North Branch, MN 55056",
                suitable=True,
                sterilization_agreed=True,
            ),
            judgement=Judgement(
                decided_by_name="Officer Lee",
                capacity="Humane animal control officer",
                decided_on=adopted_on,
                reasons="Fenced yard; references checked.",
            ),
            issue_documents=False,
        )
    return case.sterilization


def test_overdue_sweep_twice_and_after_a_week_down_marks_each_agreement_once(
    north_branch, officer, pound
):
    a = _adopt_nb_female(north_branch, officer, pound, at(2026, 12, 1, 10))
    b = _adopt_nb_female(north_branch, officer, pound, at(2026, 12, 2, 10))
    assert a.due_on == date(2027, 1, 10) and b.due_on == date(2027, 1, 10)  # adopted Dec 31
    due = list(
        upcoming_sterilization_due(
            jurisdiction_ids=[north_branch.pk], start=date(2027, 1, 4), end=date(2027, 1, 11)
        )
    )
    assert {d.subject for d in due} == {a.case.number, b.case.number}
    assert due[0].citation == "North Branch Sec. 6-72"

    assert sweep_sterilization_overdue(now=at(2027, 1, 10, 23)).applied == 0  # its last day
    first = sweep_sterilization_overdue(now=at(2027, 1, 18, 7))  # a week down
    second = sweep_sterilization_overdue(now=at(2027, 1, 18, 7, 30))
    assert (first.applied, second.applied) == (2, 0)
    for agreement in (a, b):
        agreement.refresh_from_db()
        assert agreement.status == AgreementStatus.OVERDUE
        assert agreement.overdue_on == date(2027, 1, 18)
        assert (
            Event.objects.for_object(agreement)
            .filter(action="impound.sterilization.overdue")
            .count()
            == 1
        )
