"""The default sweep and the upcoming deadlines of the notice stage (DD-04, DD-09)."""

from datetime import date, timedelta

import pytest

from dangerous_dogs.models import CaseStatus
from dangerous_dogs.sweeps import sweep_contest_default, upcoming_notice_stage
from ordinance import deadlines
from ordinance.models import Event

from .helpers import at, make_case

pytestmark = pytest.mark.django_db


def served(city, officer, received_on):
    return make_case(
        city,
        officer,
        status=CaseStatus.NOTICE_SERVED,
        notice_received_on=received_on,
        contest_deadline=received_on + timedelta(days=14),
        contest_citation="Glencoe 701 Subd. 15(B), (J)",
    )


def defaults():
    return Event.objects.filter(action="dangerous_dogs.case.defaulted")


def test_the_sweep_is_registered():
    assert "dangerous_dogs.contest_default" in deadlines.registered_sweeps()


def test_the_default_comes_the_day_after_the_deadline_once(glencoe, officer):
    case = served(glencoe, officer, date(2026, 11, 2))  # contest by November 16
    assert sweep_contest_default(now=at(date(2026, 11, 16), 23, 50)).applied == 0
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_SERVED
    first = sweep_contest_default(now=at(date(2026, 11, 17), 0, 5))
    again = sweep_contest_default(now=at(date(2026, 11, 17), 6, 0))
    assert (first.applied, again.applied) == (1, 0)
    case.refresh_from_db()
    assert case.status == CaseStatus.DEFAULTED and case.defaulted_on == date(2026, 11, 17)
    event = defaults().get()
    assert event.data["contest_deadline"] == "2026-11-16"
    assert "Glencoe 701 Subd. 15(J)" in event.summary


def test_a_catch_up_after_days_down_acts_once(glencoe, officer):
    a = served(glencoe, officer, date(2026, 11, 2))  # due November 16
    b = served(glencoe, officer, date(2026, 11, 4))  # due November 18
    later = served(glencoe, officer, date(2026, 11, 20))  # due December 4
    result = sweep_contest_default(now=at(date(2026, 11, 23), 1, 0))
    assert (result.due, result.applied) == (2, 2)
    assert sweep_contest_default(now=at(date(2026, 11, 23), 2, 0)).applied == 0
    for case in (a, b, later):
        case.refresh_from_db()
    assert a.status == b.status == CaseStatus.DEFAULTED
    assert later.status == CaseStatus.NOTICE_SERVED
    assert defaults().count() == 2


def test_a_deadline_on_a_saturday_defaults_on_sunday(glencoe, officer):
    """Calendar days: the period does not stretch over a weekend."""
    case = served(glencoe, officer, date(2026, 11, 7))  # due Saturday, November 21
    assert case.contest_deadline.weekday() == 5
    sweep_contest_default(now=at(date(2026, 11, 22), 0, 5))
    case.refresh_from_db()
    assert case.status == CaseStatus.DEFAULTED and case.defaulted_on == date(2026, 11, 22)


def test_a_contested_case_never_defaults(glencoe, officer):
    case = make_case(
        glencoe,
        officer,
        status=CaseStatus.CONTESTED,
        notice_received_on=date(2026, 11, 2),
        contest_deadline=date(2026, 11, 16),
    )
    sweep_contest_default(now=at(date(2026, 12, 1)))
    case.refresh_from_db()
    assert case.status == CaseStatus.CONTESTED and not defaults().exists()


def test_a_dry_run_changes_nothing(glencoe, officer):
    case = served(glencoe, officer, date(2026, 11, 2))
    assert sweep_contest_default(now=at(date(2026, 12, 1)), dry_run=True).applied == 1
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_SERVED


def test_upcoming_shows_the_contest_period_and_the_declaration_due(glencoe, officer):
    running = served(glencoe, officer, date(2026, 11, 2))
    due = make_case(glencoe, officer, status=CaseStatus.DEFAULTED, defaulted_on=date(2026, 11, 1))
    rows = list(
        upcoming_notice_stage(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 11, 3), end=date(2026, 11, 30)
        )
    )
    by_subject = {row.subject: row for row in rows}
    assert by_subject[running.number].what == "Contest period ends"
    assert by_subject[running.number].due == date(2026, 11, 16)
    assert by_subject[running.number].citation == "Glencoe 701 Subd. 15(B), (J)"
    assert by_subject[due.number].what == "Declaration due"
    assert by_subject[due.number].citation == "Glencoe 701 Subd. 15(J)"
    assert by_subject[due.number].consequence == "the officer issues the declaration"


def test_upcoming_shows_hearings_to_hold_and_open_appeal_periods(glencoe, officer):
    from dangerous_dogs.models import Appeal
    from dangerous_dogs.sweeps import upcoming_panel_stage

    from .hearing_helpers import scheduled

    hearing = scheduled(glencoe, officer, today=date(2026, 11, 2), on=date(2026, 11, 10))
    ruled = make_case(
        glencoe,
        officer,
        status=CaseStatus.DECLARED,
        declared_by="panel",
        declared_designation="dangerous",
        ruling_on=date(2026, 11, 5),
        appeal_deadline=date(2026, 11, 19),
        appeal_citation="Glencoe 701 Subd. 15(H)",
    )
    appealed = make_case(
        glencoe,
        officer,
        status=CaseStatus.DECLARED,
        declared_by="panel",
        declared_designation="dangerous",
        appeal_deadline=date(2026, 11, 19),
        appeal_citation="Glencoe 701 Subd. 15(H)",
    )
    Appeal.objects.create(
        case=appealed,
        filed_on=date(2026, 11, 9),
        deadline=date(2026, 11, 19),
        grounds="The dog was provoked.",
        recorded_by=officer,
    )
    rows = {
        row.subject: row
        for row in upcoming_panel_stage(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 11, 3), end=date(2026, 11, 30)
        )
    }
    assert rows[hearing.case.number].what == "Review Panel hearing"
    assert rows[hearing.case.number].due == date(2026, 11, 10)
    assert rows[hearing.case.number].citation == "Glencoe 701 Subd. 15(D)"
    assert rows[ruled.number].what == "Appeal period ends"
    assert rows[ruled.number].due == date(2026, 11, 19)
    assert rows[ruled.number].citation == "Glencoe 701 Subd. 15(H)"
    assert appealed.number not in rows
