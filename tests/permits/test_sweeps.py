"""Permit sweeps: expiry and the renewal reminder, once, twice run and after downtime."""

from datetime import date

import pytest
from django.core import mail

from ordinance.deadlines import registered_sweeps, upcoming
from ordinance.models import Event
from permits.models import HorseStatus, TemporaryStatus
from permits.sweeps import sweep_horse_expire, sweep_horse_reminders, sweep_temporary_expire

from .helpers import at, issued_horse_permit, issued_temporary_permit, set_horse_fee

pytestmark = pytest.mark.django_db


def test_the_sweeps_are_registered():
    assert {
        "permits.temporary_expire",
        "permits.horse_expire",
        "permits.horse_reminders",
    } <= set(registered_sweeps())


def test_a_temporary_permit_runs_through_its_last_day_then_expires_once(glencoe, glencoe_clerk):
    permit = issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    assert sweep_temporary_expire(now=at(2026, 6, 30, 23, 59)).applied == 0
    first = sweep_temporary_expire(now=at(2026, 7, 1, 0, 5))
    second = sweep_temporary_expire(now=at(2026, 7, 1, 6, 0))
    assert (first.applied, second.applied) == (1, 0)
    permit.refresh_from_db()
    assert permit.status == TemporaryStatus.EXPIRED
    events = Event.objects.for_object(permit).filter(action="permits.temporary.expired")
    assert events.count() == 1


def test_after_days_down_the_temporary_sweep_catches_up_once(glencoe, glencoe_clerk):
    one = issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    two = issued_temporary_permit(
        glencoe,
        glencoe_clerk,
        on=date(2026, 5, 21),
        starts_on=date(2026, 6, 5),
        ends_on=date(2026, 6, 10),
    )
    assert sweep_temporary_expire(now=at(2026, 7, 9, 8, 0)).applied == 2
    assert sweep_temporary_expire(now=at(2026, 7, 9, 8, 5)).applied == 0
    for permit in (one, two):
        permit.refresh_from_db()
        assert permit.status == TemporaryStatus.EXPIRED


def test_upcoming_names_the_temporary_end_with_its_section(glencoe, glencoe_clerk):
    issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    found = upcoming(jurisdiction_ids=[glencoe.pk], today=date(2026, 6, 28))
    ends = [d for d in found if d.what == "Temporary wild-animal permit ends"]
    assert ends and ends[0].due == date(2026, 6, 30)
    assert ends[0].citation == "Glencoe 701 Subd. 32(A)"


def test_a_horse_permit_expires_on_april_15_once_even_after_downtime(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    assert sweep_horse_expire(now=at(2027, 4, 14, 23, 59)).applied == 0
    # Down from April 14 to April 20: the first run catches up, the second does nothing.
    assert sweep_horse_expire(now=at(2027, 4, 20, 8, 0)).applied == 1
    assert sweep_horse_expire(now=at(2027, 4, 20, 8, 5)).applied == 0
    permit.refresh_from_db()
    assert permit.status == HorseStatus.EXPIRED
    assert Event.objects.for_object(permit).filter(action="permits.horse.expired").count() == 1


def test_the_renewal_reminder_is_sent_once_before_expiry(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    assert sweep_horse_reminders(now=at(2027, 3, 15, 9, 0)).applied == 0
    assert sweep_horse_reminders(now=at(2027, 3, 20, 9, 0)).applied == 1  # after days down
    assert sweep_horse_reminders(now=at(2027, 3, 21, 9, 0)).applied == 0
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hanna@example.org"]
    assert "April 15, 2027" in message.body and "Glencoe 702" in message.body
    permit.refresh_from_db()
    assert permit.reminder_sent_at is not None


def test_no_reminder_without_an_address_or_after_expiry(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1), applicant_email="")
    assert sweep_horse_reminders(now=at(2027, 3, 20, 9, 0)).applied == 0
    issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    assert sweep_horse_reminders(now=at(2027, 4, 16, 9, 0)).applied == 0
    assert not mail.outbox


def test_upcoming_names_the_horse_expiry_with_its_section(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    found = upcoming(jurisdiction_ids=[glencoe.pk], today=date(2027, 4, 10))
    (due,) = [d for d in found if d.what == "Horse permit expires"]
    assert (due.due, due.citation, due.subject) == (date(2027, 4, 15), "Glencoe 702", permit.number)
    assert due.url == permit.get_absolute_url()
