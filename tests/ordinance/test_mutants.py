"""Tests written to kill surviving mutants of ``make mutate`` (tests/README.md).

Each test pins a behaviour a mutant changed without any other test noticing; the rule ID
it protects is in its docstring or comment. Dates are explicit, so the tests hold
whatever the clock says.
"""

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
import time_machine

from ordinance import deadlines
from ordinance import sweeps as sweeps_module
from ordinance.amendments import rule_amend
from ordinance.calendar import add_business_days, due_date
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import ClosedDay, Event, FeeScheduleEntry, Jurisdiction, RuleValue
from ordinance.money import money_sum, to_money
from ordinance.rules import RuleNotInOrdinance, RuleNotSet, profile_for, rule_in_force
from ordinance.sweeps import SweepResult, run_sweep


def test_to_money_rounds_half_cents_up_not_to_even():
    # Money is two places, half up (architecture.md "Money and numbers"; FEE-03 penalties):
    # Python's default context would round 0.125 to 0.12 and 0.145 to 0.14.
    assert str(to_money(Decimal("0.125"))) == "0.13"
    assert str(to_money(Decimal("2.145"))) == "2.15"
    assert str(to_money(Decimal("2.135"))) == "2.14"


def test_to_money_of_nothing_is_zero_dollars():
    # A database SUM over no rows is None: a report of no receipts totals $0.00 (REC-01).
    assert str(to_money(None)) == "0.00"
    assert str(to_money(0)) == "0.00"
    assert str(to_money(7)) == "7.00"


def test_money_sum_of_no_lines_is_a_two_place_zero():
    # A receipt total with no lines is "0.00", not the integer 0 (LIC-06, REC-01).
    total = money_sum([])
    assert isinstance(total, Decimal) and str(total) == "0.00"
    assert str(money_sum([Decimal("18.00"), Decimal("4.50")])) == "22.50"


# --- ordinance/deadlines.py: sweep_all ------------------------------------------------


def test_sweep_all_hands_every_sweep_one_reading_of_the_clock_and_the_dry_run_flag(
    monkeypatch,
):
    # style.md "Pass time in, read the clock once"; every job has a --dry-run.
    calls = []

    def sweep(*, now, dry_run=False):
        calls.append((now, dry_run))
        return SweepResult(name="test", dry_run=dry_run)

    monkeypatch.setattr(deadlines, "_sweeps", {"b": sweep, "a": sweep})
    given = datetime(2027, 1, 4, 6, 0, tzinfo=UTC)
    deadlines.sweep_all(now=given, dry_run=True)
    assert calls == [(given, True), (given, True)]
    calls.clear()
    frozen = datetime(2026, 12, 31, 23, 30, tzinfo=UTC)
    with time_machine.travel(frozen, tick=False):
        deadlines.sweep_all()
    assert calls == [(frozen, False), (frozen, False)]


def test_upcoming_looks_as_far_ahead_as_asked_and_a_week_by_default(monkeypatch):
    # The staff home pages list deadlines a week ahead; a report may ask for more days.
    windows = []

    def query(*, jurisdiction_ids, start, end):
        windows.append((jurisdiction_ids, start, end))
        return []

    monkeypatch.setattr(deadlines, "_upcoming", {"q": query})
    deadlines.upcoming(jurisdiction_ids=[1], today=date(2026, 12, 28), days=30)
    deadlines.upcoming(jurisdiction_ids=[1], today=date(2026, 12, 28))
    assert windows == [
        ([1], date(2026, 12, 28), date(2027, 1, 27)),
        ([1], date(2026, 12, 28), date(2027, 1, 4)),
    ]


# --- ordinance/sweeps.py: run_sweep, the pattern every deadline job uses ----------------

SWEPT_AT = datetime(2027, 1, 4, 6, 0, tzinfo=UTC)


def pending_days(city, n):
    return [
        ClosedDay.objects.create(jurisdiction=city, date=date(2027, 3, d), reason="pending")
        for d in range(1, n + 1)
    ]


def sweep(*, still_applies=lambda row: True, seen=None):
    def transition(row, now):
        if seen is not None:
            seen.append(now)
        row.reason = "done"
        row.save(update_fields=["reason"])
        return {"day": row.date.isoformat()}

    return run_sweep(
        name="test sweep",
        action="ordinance.test.swept",
        due=ClosedDay.objects.filter(reason="pending"),
        still_applies=still_applies,
        transition=transition,
        now=SWEPT_AT,
    )


def test_a_row_that_no_longer_applies_is_skipped_and_the_sweep_goes_on(north_branch):
    # The re-check under the lock (architecture.md sweep pattern): a row another worker
    # already moved is skipped, and the rows after it in the chunk are still applied.
    first, second, third = pending_days(north_branch, 3)
    result = sweep(still_applies=lambda row: row.pk != first.pk)
    assert (result.due, result.applied) == (3, 2)
    assert list(ClosedDay.objects.order_by("date").values_list("reason", flat=True)) == [
        "pending",
        "done",
        "done",
    ]


def test_every_chunk_is_applied_when_more_rows_are_due_than_one_chunk(north_branch, monkeypatch):
    # A sweep that was down catches up on everything due (style.md "catch up after downtime").
    monkeypatch.setattr(sweeps_module, "CHUNK_SIZE", 2)
    pending_days(north_branch, 5)
    result = sweep()
    assert (result.due, result.applied) == (5, 5)
    assert not ClosedDay.objects.filter(reason="pending").exists()


def test_each_transition_gets_the_sweep_time_and_records_an_event_on_its_row(north_branch):
    [day] = pending_days(north_branch, 1)
    seen = []
    sweep(seen=seen)
    assert seen == [SWEPT_AT]
    [event] = Event.objects.filter(action="ordinance.test.swept")
    assert (event.subject_id, event.at, event.data, event.summary) == (
        str(day.pk),
        SWEPT_AT,
        {"day": "2027-03-01"},
        "test sweep (automatic)",
    )
    assert event.jurisdiction == north_branch


# --- ordinance/calendar.py: due_date -------------------------------------------------------


def test_due_date_refuses_a_rule_that_is_not_a_duration_and_names_it(north_branch):
    # DEF-20: only day, business-day, month and month-day rules set deadlines.
    with pytest.raises(ValueError, match="^licensed_species is not a duration.$"):
        due_date(north_branch, "licensed_species", date(2027, 1, 4))
    # A count of hours (a bite report) or of animals is not a date deadline either.
    with pytest.raises(ValueError, match="^owner_bite_report_hours is counted in hours, not"):
        due_date(north_branch, "owner_bite_report_hours", date(2027, 1, 4))
    with pytest.raises(ValueError, match="^kennel_min_dogs_commercial is counted in no unit, "):
        due_date(north_branch, "kennel_min_dogs_commercial", date(2027, 1, 4))


def test_business_days_are_counted_forward_only(north_branch):
    # DEF-20: counting starts the day after the event; there is no counting backward.
    with pytest.raises(ValueError, match="^Business days are counted forward only.$"):
        add_business_days(north_branch, date(2027, 1, 4), -1)


def test_sixty_business_days_read_the_citys_closed_days_with_one_query(
    north_branch, django_assert_num_queries
):
    # add_business_days reads ClosedDay a window at a time, sized from the days still to
    # count: 60 business days (about 12 weeks) fit in the first window.
    with django_assert_num_queries(1):
        assert add_business_days(north_branch, date(2027, 1, 4), 60) == date(2027, 3, 31)


# --- ordinance/rules.py: rule_amend ------------------------------------------------------


def amend(city, actor, value, effective_from, **kw):
    return rule_amend(
        jurisdiction=city,
        key="duplicate_tag_fee",
        value=Decimal(value),
        effective_from=effective_from,
        ordinance_ref="Ord. No. 260-26",
        actor=actor,
        **kw,
    )


def test_an_amendment_carries_the_section_and_rule_ids_of_the_value_it_follows(
    north_branch, administrator
):
    # Rules as data (rules.md Section 0): a later amendment keeps the citation and rule IDs
    # of the value in force before it, which may differ from the adopted profile's.
    amend(north_branch, administrator, "4.00", date(2026, 7, 1), citation="Res. 2026-7")
    RuleValue.objects.filter(
        key="duplicate_tag_fee", effective_from=date(2026, 7, 1), jurisdiction=north_branch
    ).update(rule_ids=["FEE-99"])
    row = amend(north_branch, administrator, "5.00", date(2027, 1, 1))
    assert (row.citation, row.rule_ids, row.note) == ("Res. 2026-7", ["FEE-99"], "")
    rule = rule_in_force(north_branch, "duplicate_tag_fee", on=date(2027, 1, 4))
    assert (rule.value, rule.citation, rule.rule_ids) == (
        Decimal("5.00"),
        "Res. 2026-7",
        ("FEE-99",),
    )
    amend(north_branch, administrator, "6.00", date(2027, 6, 1), note="Council raised it")
    rule = rule_in_force(north_branch, "duplicate_tag_fee", on=date(2027, 6, 1))
    assert (rule.key, rule.label, rule.note) == (
        "duplicate_tag_fee",
        "Duplicate tag fee",
        "Council raised it",
    )


def test_an_amendment_before_any_value_takes_the_profiles_section(north_branch, administrator):
    row = amend(north_branch, administrator, "2.00", date(2000, 1, 1))
    assert (row.citation, row.rule_ids) == ("North Branch Sec. 6-63", ["LIC-10", "FEE-04"])


def test_an_amendment_is_recorded_as_an_event_on_the_row_in_its_city(north_branch, administrator):
    row = amend(north_branch, administrator, "4.00", date(2026, 7, 1))
    [event] = Event.objects.filter(action="ordinance.rule.amended")
    assert (event.subject_id, event.jurisdiction, event.actor) == (
        str(row.pk),
        north_branch,
        administrator,
    )
    assert event.summary == "Duplicate tag fee: $4.00 from 2026-07-01 (Ord. No. 260-26)"
    assert event.data == {
        "key": "duplicate_tag_fee",
        "value": "4.00",
        "effective_from": "2026-07-01",
    }
    rule_amend(
        jurisdiction=north_branch,
        key="impound_hold_business_days",
        value=6,
        effective_from=date(2026, 7, 1),
        ordinance_ref="Ord. No. 260-27",
        actor=administrator,
    )
    assert Event.objects.filter(summary__contains=": 6 business days from 2026-07-01").exists()


def test_a_rule_not_yet_in_force_says_which_city_rule_and_section(north_branch):
    # rules.md Section 0: RuleNotSet carries the city, the key and the section, so the page
    # can say what an administrator must record.
    with pytest.raises(RuleNotSet) as excinfo:
        rule_in_force(north_branch, "license_expiry", on=date(2000, 12, 31))
    assert (excinfo.value.jurisdiction, excinfo.value.key, excinfo.value.citation) == (
        north_branch,
        "license_expiry",
        "North Branch Sec. 6-62",
    )
    assert str(excinfo.value).endswith(
        "an administrator must load the ordinance profile or record the value first."
    )
    with pytest.raises(RuleNotInOrdinance) as excinfo:
        rule_in_force(north_branch, "no_such_rule", on=date(2027, 1, 4))
    assert (excinfo.value.jurisdiction, excinfo.value.key, excinfo.value.citation) == (
        north_branch,
        "no_such_rule",
        "",
    )
    assert str(excinfo.value).endswith("this feature does not apply there.")
    elsewhere = Jurisdiction(name="City of Elsewhere", profile_key="no_such_profile")
    with pytest.raises(RuleNotInOrdinance) as excinfo:
        profile_for(elsewhere)
    assert str(excinfo.value).startswith("City of Elsewhere has no ordinance profile: ")
    assert excinfo.value.jurisdiction is elsewhere
    assert (RuleNotInOrdinance("No profile.").key, RuleNotSet("Blank.").citation) == ("", "")


def test_amending_a_rule_the_city_does_not_have_is_refused_naming_the_city(north_branch):
    with pytest.raises(RuleNotInOrdinance, match="^City of North Branch's ordinance has no rule"):
        rule_amend(
            jurisdiction=north_branch,
            key="release_fee_x",
            value=Decimal("1.00"),
            effective_from=date(2027, 1, 1),
            ordinance_ref="Ord. No. 1",
        )


# --- ordinance/fees.py: fee_amount, scheduled_fee (FEE-01..FEE-08) -------------------------


def test_the_fee_in_force_is_the_latest_effective_date_whatever_order_it_was_entered(glencoe):
    # FEE-01: the resolution in force on the day, not the row entered last.
    for effective, amount in ((date(2026, 7, 1), "7.00"), (date(2026, 1, 1), "5.00")):
        FeeScheduleEntry.objects.create(
            jurisdiction=glencoe,
            code="microchip_scan",
            description="Microchip scan",
            amount=Decimal(amount),
            effective_from=effective,
            resolution="Res. 2026-3",
        )
    assert fee_amount(glencoe, "microchip_scan", on=date(2026, 8, 1)).amount == Decimal("7.00")
    assert fee_amount(glencoe, "microchip_scan", on=date(2026, 3, 1)).amount == Decimal("5.00")


def test_a_fee_the_ordinance_fixes_is_in_force_from_the_ordinances_adoption(north_branch):
    # NB Sec. 6-63 fixes the duplicate tag fee; Ord. No. 230-15 was adopted 2015-09-22.
    fee = fee_amount(north_branch, "duplicate_tag", on=date(2026, 3, 1))
    assert (fee.amount, fee.effective_from) == (Decimal("3.00"), date(2015, 9, 22))


def test_a_fee_the_citys_ordinance_does_not_have_is_refused_without_a_section(north_branch):
    # FEE-01: "not set" names the section only when the ordinance leaves the fee to the
    # council; North Branch's ordinance has no release fee at all.
    with pytest.raises(FeeNotSet) as excinfo:
        fee_amount(north_branch, "release", on=date(2026, 3, 1))
    assert (excinfo.value.citation, excinfo.value.key, excinfo.value.jurisdiction) == (
        "",
        "release",
        north_branch,
    )
    assert str(excinfo.value).startswith(
        "The release fee for City of North Branch is not set: no council resolution"
    )
    assert str(excinfo.value).endswith("An administrator must add it to the fee schedule first.")


def test_a_fee_not_set_is_named_as_the_clerk_knows_it_with_its_section(north_branch, glencoe):
    # FEE-01 (NB Sec. 6-62): before any resolution, the dog license fee is "not set" and the
    # refusal cites the section that leaves it to the council.
    with pytest.raises(FeeNotSet) as excinfo:
        fee_amount(north_branch, "dog_license", on=date(2024, 12, 31))
    assert excinfo.value.citation == "North Branch Sec. 6-62"
    assert str(excinfo.value).startswith(
        "The annual dog license fee for City of North Branch is not set (North Branch Sec. 6-62): "
        "no council resolution is in force on Dec 31, 2024."
    )
    with pytest.raises(FeeNotSet, match="^The microchip scan fee for City of Glencoe is not"):
        fee_amount(glencoe, "microchip_scan", on=date(2026, 3, 1))
