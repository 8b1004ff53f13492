"""Renewal reminders: ``licensing.renewal_reminders`` e-mails the owner
once per license and term when the renewal window opens: North Branch's 30 days before
the term starting January 1 (NB Sec. 6-65(c), LIC-13), so on December 2. None in Glencoe
(the licensing section deleted, Subd. 2(D), LIC-16), none for a dead animal, none for an
owner without an e-mail address, none for a dog already renewed.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from licensing.models import AnimalStatus, License, RenewalReminder
from licensing.services.reminders import renewal_window
from licensing.sweeps import sweep_renewal_reminders
from ordinance import deadlines
from ordinance.models import Event
from tests.conftest import make_user
from tests.licensing.license_factories import LicenseFactory

CHICAGO = ZoneInfo("America/Chicago")
WINDOW_OPENS = date(2026, 12, 2)  # January 1, 2027 less 30 days (NB Sec. 6-65(c))

pytestmark = pytest.mark.django_db


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 6, 0, tzinfo=CHICAGO)


@pytest.fixture
def sweep(django_capture_on_commit_callbacks):
    """Run the sweep as beat would, with the e-mails that go after commit."""

    def run(day, **kw):
        with django_capture_on_commit_callbacks(execute=True):
            return sweep_renewal_reminders(now=at(day), **kw)

    return run


@pytest.fixture
def issuer(north_branch, glencoe):
    return make_user("issuer", "clerk", [north_branch, glencoe])


@pytest.fixture
def rex(north_branch, issuer):
    return LicenseFactory(
        jurisdiction=north_branch, issued_by=issuer, animal__name="Rex", number="2026-0101"
    )


def test_the_day_before_the_window_opens_nothing_is_sent(rex, sweep, mailoutbox):
    result = sweep(date(2026, 12, 1))
    assert (result.due, result.applied) == (0, 0)
    assert not mailoutbox and not RenewalReminder.objects.exists()


def test_the_day_it_opens_one_email_per_license_with_the_link_and_section(
    rex, north_branch, issuer, sweep, mailoutbox, settings
):
    settings.SITE_URL = "https://animals.example.gov"
    other = LicenseFactory(jurisdiction=north_branch, issued_by=issuer, number="2026-0102")
    result = sweep(WINDOW_OPENS)
    assert (result.due, result.applied) == (2, 2)
    assert sorted(m.to[0] for m in mailoutbox) == sorted([rex.owner.email, other.owner.email])
    mail = next(m for m in mailoutbox if m.to == [rex.owner.email])
    assert "Rex" in mail.subject and "Dec 31, 2026" in mail.subject
    assert "The license 2026-0101 of your dog Rex expires on Thu, Dec 31, 2026" in (mail.body)
    assert "term starting Jan 1, 2027 (North Branch Sec. 6-65(c))" in mail.body
    assert f"https://animals.example.gov/my/animals/{rex.animal.pk}/" in mail.body
    reminder = RenewalReminder.objects.get(license=rex)
    assert (reminder.term_start, reminder.sent_to) == (date(2027, 1, 1), rex.owner.email)
    assert reminder.sent_at == at(WINDOW_OPENS)
    event = Event.objects.get(action="licensing.license.renewal_reminded", subject_id=str(rex.pk))
    assert event.jurisdiction == north_branch
    assert event.data["citation"] == "North Branch Sec. 6-65(c)"


def test_the_window_is_the_counters_own_answer(north_branch):
    """LIC-13: the term an application made that day is for (``license_term``)."""
    assert renewal_window(north_branch, on=date(2026, 12, 1)) is None
    window = renewal_window(north_branch, on=WINDOW_OPENS)
    assert (window.term_start, window.ending_on) == (date(2027, 1, 1), date(2026, 12, 31))


def test_run_twice_sends_once(rex, sweep, mailoutbox):
    sweep(WINDOW_OPENS)
    again = sweep(WINDOW_OPENS)
    later = sweep(date(2026, 12, 20))
    assert (again.due, again.applied, later.due, later.applied) == (0, 0, 0, 0)
    assert len(mailoutbox) == 1
    assert RenewalReminder.objects.count() == 1


def test_catch_up_after_days_of_downtime_sends_once(rex, sweep, mailoutbox):
    assert sweep(date(2026, 11, 30)).due == 0
    result = sweep(date(2026, 12, 9))  # down from November 30 to December 9
    assert (result.due, result.applied) == (1, 1)
    assert sweep(date(2026, 12, 10)).due == 0
    assert len(mailoutbox) == 1


def test_a_dry_run_counts_and_sends_nothing(rex, sweep, mailoutbox):
    result = sweep(WINDOW_OPENS, dry_run=True)
    assert (result.due, result.applied, result.dry_run) == (1, 1, True)
    assert not mailoutbox and not RenewalReminder.objects.exists()


def test_glencoe_issues_no_dog_licenses_so_none(glencoe, issuer, sweep, mailoutbox):
    """LIC-16: Glencoe 701 Subd. 2(D) deleted; a license row there is never reminded."""
    LicenseFactory(jurisdiction=glencoe, issued_by=issuer)
    assert renewal_window(glencoe, on=WINDOW_OPENS) is None
    assert sweep(WINDOW_OPENS).due == 0
    assert not mailoutbox


def test_an_owner_without_email_gets_none_and_no_row(north_branch, issuer, sweep, mailoutbox):
    LicenseFactory(jurisdiction=north_branch, issued_by=issuer, animal__owner__email="")
    assert sweep(WINDOW_OPENS).due == 0
    assert not mailoutbox and not RenewalReminder.objects.exists()


def test_a_dead_or_moved_animal_gets_none(north_branch, issuer, sweep, mailoutbox):
    LicenseFactory(
        jurisdiction=north_branch, issued_by=issuer, animal__status=AnimalStatus.DECEASED
    )
    LicenseFactory(
        jurisdiction=north_branch, issued_by=issuer, animal__status=AnimalStatus.TRANSFERRED_OUT
    )
    assert sweep(WINDOW_OPENS).due == 0
    assert not mailoutbox


def test_a_dog_renewed_already_gets_none(rex, north_branch, issuer, sweep, mailoutbox):
    LicenseFactory(
        jurisdiction=north_branch,
        issued_by=issuer,
        animal=rex.animal,
        owner=rex.owner,
        number="2027-0001",
        term_start=date(2027, 1, 1),
        expires_on=date(2027, 12, 31),
        issued_on=WINDOW_OPENS,
    )
    assert sweep(WINDOW_OPENS).due == 0
    assert not mailoutbox


def test_a_license_that_ran_out_is_not_reminded_after_the_term(rex, sweep, mailoutbox):
    """Down through New Year: the window of the old term has closed; the expired license
    shows on the counter's lists instead."""
    License.objects.filter(pk=rex.pk).update(status="expired")
    assert sweep(date(2027, 1, 4)).due == 0
    assert not mailoutbox


def test_the_sweep_is_registered_with_the_others():
    assert "licensing.renewal_reminders" in deadlines.registered_sweeps()
