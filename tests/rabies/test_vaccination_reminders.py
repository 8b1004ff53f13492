"""The e-mail reminder before a rabies vaccination runs out (RAB-03):
``rabies.vaccination_reminders`` sends one e-mail per vaccination, once, to the owner,
when licensing's answer is "due soon" (within RABIES_REMINDER_LEAD_DAYS of its due date).
"""

from datetime import date

import pytest
import time_machine
from django.test import override_settings

from ordinance import deadlines
from ordinance.models import Event
from rabies.models import VaccinationReminder
from rabies.sweeps_vaccinations import sweep_vaccination_reminders
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import at, vaccinate

pytestmark = pytest.mark.django_db


def sweep(day, **kw):
    return sweep_vaccination_reminders(now=at(day), **kw)


@pytest.fixture
def rex(north_branch):
    dog = owned_dog(north_branch, name="Rex")
    shot = vaccinate(dog, date(2025, 12, 20))  # due again by December 20, 2026
    return dog, shot


def test_one_email_to_the_owner_naming_the_animal_the_date_and_the_section(rex, mailoutbox):
    dog, shot = rex
    result = sweep(date(2026, 12, 7))  # 13 days before
    assert (result.due, result.applied) == (1, 1)
    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == [dog.owner.email]
    assert "Rex" in mail.subject and "Dec 20, 2026" in mail.subject
    assert "rabies vaccination of your dog Rex is due again by Sun, Dec 20, 2026" in (mail.body)
    assert "North Branch Sec. 6-77" in mail.body
    assert "Dec 20, 2025 (1 year vaccine)" in mail.body
    reminder = VaccinationReminder.objects.get()
    assert reminder.vaccination == shot
    assert reminder.due_on == date(2026, 12, 20)
    assert reminder.sent_to == dog.owner.email
    assert reminder.sent_at == at(date(2026, 12, 7))
    event = Event.objects.get(action="rabies.vaccination.reminded")
    assert event.jurisdiction_id == dog.jurisdiction_id
    assert event.data["vaccination"] == shot.pk and event.data["due_on"] == "2026-12-20"


def test_run_twice_sends_once(rex, mailoutbox):
    sweep(date(2026, 12, 7))
    again = sweep(date(2026, 12, 7))
    later = sweep(date(2026, 12, 15))
    assert (again.due, again.applied) == (0, 0)
    assert (later.due, later.applied) == (0, 0)
    assert len(mailoutbox) == 1
    assert VaccinationReminder.objects.count() == 1


@override_settings(RABIES_REMINDER_LEAD_DAYS=30)
def test_not_before_the_lead_days(rex, mailoutbox):
    assert sweep(date(2026, 11, 19)).due == 0  # 31 days before
    assert sweep(date(2026, 11, 20)).due == 1  # 30 days before
    assert len(mailoutbox) == 1


@override_settings(RABIES_REMINDER_LEAD_DAYS=7)
def test_the_lead_days_are_a_setting(rex, mailoutbox):
    assert sweep(date(2026, 12, 7)).due == 0
    assert sweep(date(2026, 12, 13)).due == 1


def test_after_downtime_a_vaccination_still_due_soon_is_reminded_once(
    north_branch, rex, mailoutbox
):
    """Down from November 15 to December 18: Rex (due the 20th) is reminded once; Max,
    whose vaccination ran out on the 10th meanwhile, is overdue, not reminded."""
    max_ = owned_dog(north_branch, name="Max")
    vaccinate(max_, date(2025, 12, 10))
    assert sweep(date(2026, 11, 1)).due == 0
    result = sweep(date(2026, 12, 18))
    assert (result.due, result.applied) == (1, 1)
    assert [m.to for m in mailoutbox] == [[rex[0].owner.email]]
    assert sweep(date(2026, 12, 19)).due == 0


def test_never_for_an_owner_without_email_a_dead_animal_or_a_superseded_vaccination(
    north_branch, clerk, mailoutbox
):
    no_email = owned_dog(north_branch, name="Quiet")
    no_email.owner.email = ""
    no_email.owner.save()
    vaccinate(no_email, date(2025, 12, 20))
    dead = owned_dog(north_branch, name="Late")
    vaccinate(dead, date(2025, 12, 20))
    dead.mark_deceased(actor=clerk, on=date(2026, 11, 1))
    renewed = owned_dog(north_branch, name="Renewed")
    vaccinate(renewed, date(2025, 12, 20))
    vaccinate(renewed, date(2026, 11, 30), years=3)  # the later one is current
    moved = owned_dog(north_branch, name="Moved")
    vaccinate(moved, date(2025, 12, 20))
    moved.mark_moved_out(actor=clerk, on=date(2026, 12, 1))
    assert sweep(date(2026, 12, 7)).due == 0
    assert mailoutbox == []


def test_never_for_a_species_the_ordinance_does_not_require(north_branch, glencoe, mailoutbox):
    ferret = owned_dog(north_branch, name="Slinky", species="ferret")
    vaccinate(ferret, date(2025, 12, 20))  # North Branch requires dogs and cats (6-77)
    iguana = owned_dog(glencoe, name="Iggy", species="other")
    vaccinate(iguana, date(2025, 12, 20))  # no licensed vaccine (Glencoe 20(F))
    assert sweep(date(2026, 12, 7)).due == 0


def test_a_glencoe_cat_cites_the_revaccination_rule(glencoe, mailoutbox):
    cat = owned_dog(glencoe, name="Mochi", species="cat")
    vaccinate(cat, date(2023, 12, 24), years=3)
    sweep(date(2026, 12, 7))
    assert len(mailoutbox) == 1
    assert "your cat Mochi is due again by Thu, Dec 24, 2026" in mailoutbox[0].body
    assert "Glencoe 701 Subd. 20(C)" in mailoutbox[0].body
    assert "City of Glencoe" in mailoutbox[0].body


def test_the_next_vaccination_gets_its_own_reminder(rex, mailoutbox):
    dog, _shot = rex
    sweep(date(2026, 12, 7))
    vaccinate(dog, date(2026, 12, 15))  # due again by December 15, 2027
    assert sweep(date(2027, 11, 14)).due == 0
    assert sweep(date(2027, 11, 15)).due == 1
    assert len(mailoutbox) == 2
    assert "Dec 15, 2027" in mailoutbox[1].subject


def test_a_failed_send_is_recorded_and_retried(rex, mailoutbox, monkeypatch):
    def broken(self, *args, **kwargs):
        raise ConnectionRefusedError

    with monkeypatch.context() as patched:
        patched.setattr("django.core.mail.EmailMessage.send", broken)
        sweep(date(2026, 12, 7))
    assert not VaccinationReminder.objects.exists()
    failed = Event.objects.get(action="rabies.vaccination.reminder_failed")
    assert failed.data["error"] == "ConnectionRefusedError"
    sweep(date(2026, 12, 8))
    assert len(mailoutbox) == 1 and VaccinationReminder.objects.count() == 1


def test_a_dry_run_counts_and_sends_nothing(rex, mailoutbox):
    result = sweep(date(2026, 12, 7), dry_run=True)
    assert (result.due, result.applied, result.dry_run) == (1, 1, True)
    assert mailoutbox == [] and not VaccinationReminder.objects.exists()


def test_registered_and_run_by_sweep_all(rex, mailoutbox):
    assert "rabies.vaccination_reminders" in deadlines.registered_sweeps()
    with time_machine.travel(at(date(2026, 12, 7)), tick=False):
        results = deadlines.sweep_all(now=at(date(2026, 12, 7)))
    assert {r.name: (r.due, r.applied) for r in results}["rabies vaccination reminders"] == (1, 1)
    assert len(mailoutbox) == 1
