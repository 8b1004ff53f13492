"""The reminder before a lost-pet report closes: the beat sweep
``impound.lost_reports_remind`` e-mails the resident once per open period, the profile's
program setting ``lost_report_reminder_days`` (7 as shipped; not an ordinance rule, IMP-05
serves the duty to notify owners) *calendar* days before the stored ``expires_on``:
a weekend or a Minnesota holiday does not move it. A second run sends nothing; a run after
days down reminds each report still open once and never one past its end; a renewal
opens a new period with its own reminder; a closed or expired report gets none."""

from datetime import date, timedelta

import pytest
from django.conf import settings
from django.urls import reverse

from impound.models import LostReport, LostStatus
from impound.services.lost import lost_report_close, lost_report_renew
from impound.sweeps import sweep_lost_reports_expire, sweep_lost_reports_remind
from ordinance.models import Event
from ordinance.profiles import get_profile
from ordinance.rules import rule_in_force
from tests.conftest import make_user
from tests.impound.helpers import at
from tests.impound.lost_helpers import report

pytestmark = pytest.mark.django_db

PHONE = "651-555-0123"  # the report's contact phone: never in the e-mail


@pytest.fixture
def rita(resident):
    resident.email = "rita@example.org"
    resident.save()
    return resident


@pytest.fixture
def remind(django_capture_on_commit_callbacks):
    """Run the sweep at a moment, its after-commit e-mails sent."""

    def run(when, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return sweep_lost_reports_remind(now=when, **kwargs)

    return run


def _filed(city, who, day: date, **extra):
    """A report filed at 9 a.m. on ``day``: open 30 days (lost_report_open_days)."""
    return report(city, who, when=at(day.year, day.month, day.day, 9), lost_on=day, **extra)


def _counts(result):
    return result.due, result.applied


def test_the_shipped_setting_is_a_program_setting_shorter_than_the_open_period(north_branch):
    for key in ("north_branch", "glencoe"):
        spec = get_profile(key).values["lost_report_reminder_days"]
        assert "not an ordinance rule" in spec.label and "not in ordinance" in spec.citation
        assert spec.unit == "days" and spec.rule_ids == ("IMP-05",)
        assert 0 < spec.value < get_profile(key).values["lost_report_open_days"].value
    rule = rule_in_force(north_branch, "lost_report_reminder_days", on=date(2026, 11, 30))
    assert rule.value == 7


@pytest.mark.parametrize(
    "filed, remind_on",
    [
        (date(2026, 11, 3), date(2026, 11, 26)),  # ends Thu Dec 3: reminded on Thanksgiving
        (date(2026, 11, 19), date(2026, 12, 12)),  # ends Sat Dec 19: reminded on a Saturday
    ],
)
def test_it_reminds_once_seven_calendar_days_before_the_end(
    north_branch, rita, remind, mailoutbox, filed, remind_on
):
    lost = _filed(north_branch, rita, filed)
    assert (lost.expires_on - remind_on).days == 7
    day_before = at(remind_on.year, remind_on.month, remind_on.day, 23, 30) - timedelta(days=1)
    assert _counts(remind(day_before)) == (0, 0)
    assert mailoutbox == []
    on_the_day = at(remind_on.year, remind_on.month, remind_on.day, 0, 5)
    assert _counts(remind(on_the_day)) == (1, 1)
    assert len(mailoutbox) == 1
    assert _counts(remind(at(remind_on.year, remind_on.month, remind_on.day, 6))) == (0, 0)
    assert len(mailoutbox) == 1
    assert Event.objects.filter(action="impound.lost.reminded").count() == 1
    lost.refresh_from_db()
    assert lost.reminder_sent_for_expiry == lost.expires_on
    last = lost.history.latest()
    assert last.history_change_reason == "impound.lost.reminded"
    assert last.reminder_sent_for_expiry == lost.expires_on


def test_the_e_mail_says_when_it_closes_and_where_to_renew_and_nothing_more(
    north_branch, rita, remind, mailoutbox
):
    lost = _filed(north_branch, rita, date(2026, 11, 3), distinguishing_marks="Torn left ear")
    remind(at(2026, 11, 26, 6))
    (mail,) = mailoutbox
    assert mail.to == ["rita@example.org"]
    assert "North Branch" in mail.subject and "Dec 3, 2026" in mail.subject
    body = mail.body
    assert "stays open through Dec 3, 2026" in body
    page = settings.SITE_URL.rstrip("/") + reverse("impound:lost_report_detail", args=[lost.pk])
    assert page in body  # the resident's report page: renew and close there
    assert "renew the report" in body
    assert lost.expires_citation in body and "Juno" in body and "Main St" in body
    for private in (PHONE, "Torn left ear", "Rita", "Resident"):
        assert private not in body and private not in mail.subject


def test_a_run_after_downtime_reminds_each_report_still_open_once_and_none_past_its_end(
    north_branch, glencoe, rita, other_resident, remind, mailoutbox
):
    """Down from November 20 to December 1: two reports end within seven days (Dec 3 and
    Dec 5, Glencoe's own setting); one ended November 30 unreminded and gets nothing."""
    other_resident.email = "bob@example.org"
    other_resident.save()
    soon = _filed(north_branch, rita, date(2026, 11, 3))
    later = _filed(glencoe, other_resident, date(2026, 11, 5))
    ended = _filed(north_branch, rita, date(2026, 10, 31))
    assert (soon.expires_on, later.expires_on, ended.expires_on) == (
        date(2026, 12, 3),
        date(2026, 12, 5),
        date(2026, 11, 30),
    )
    assert _counts(remind(at(2026, 11, 20, 6))) == (0, 0)
    assert _counts(remind(at(2026, 12, 1, 6))) == (2, 2)
    assert sorted(m.to[0] for m in mailoutbox) == ["bob@example.org", "rita@example.org"]
    assert LostReport.objects.get(pk=ended.pk).reminder_sent_for_expiry is None
    assert _counts(remind(at(2026, 12, 2, 6))) == (0, 0)
    assert len(mailoutbox) == 2


def test_a_renewal_opens_a_new_period_with_its_own_reminder(north_branch, rita, remind, mailoutbox):
    lost = _filed(north_branch, rita, date(2026, 11, 3))
    remind(at(2026, 11, 26, 6))
    assert len(mailoutbox) == 1
    lost_report_renew(report=lost, actor=rita, now=at(2026, 12, 1, 9))
    lost.refresh_from_db()
    assert lost.expires_on == date(2026, 12, 31)
    assert _counts(remind(at(2026, 12, 23, 23))) == (0, 0)  # the day before: nothing
    assert _counts(remind(at(2026, 12, 24, 6))) == (1, 1)  # Christmas Eve
    assert _counts(remind(at(2026, 12, 25, 6))) == (0, 0)
    assert len(mailoutbox) == 2 and "Dec 31, 2026" in mailoutbox[1].subject
    lost.refresh_from_db()
    assert lost.reminder_sent_for_expiry == date(2026, 12, 31)


def test_a_report_renewed_before_its_reminder_day_is_reminded_of_the_new_end_only(
    north_branch, rita, remind, mailoutbox
):
    lost = _filed(north_branch, rita, date(2026, 11, 3))
    lost_report_renew(report=lost, actor=rita, now=at(2026, 11, 20, 9))  # now ends Dec 20
    assert _counts(remind(at(2026, 11, 26, 6))) == (0, 0)
    assert _counts(remind(at(2026, 12, 13, 6))) == (1, 1)
    assert len(mailoutbox) == 1


def test_a_closed_or_expired_report_gets_no_reminder(north_branch, rita, remind, mailoutbox):
    closed = _filed(north_branch, rita, date(2026, 11, 3))
    lost_report_close(report=closed, actor=rita, note="Found at home", now=at(2026, 11, 20, 9))
    expired = _filed(north_branch, rita, date(2026, 10, 27))  # ended November 26
    sweep_lost_reports_expire(now=at(2026, 11, 27, 0, 5))
    assert LostReport.objects.get(pk=expired.pk).status == LostStatus.EXPIRED
    assert _counts(remind(at(2026, 11, 27, 6))) == (0, 0)
    assert _counts(remind(at(2026, 11, 30, 6))) == (0, 0)
    assert mailoutbox == []


def test_a_resident_without_an_e_mail_address_is_not_counted(north_branch, remind, mailoutbox):
    nobody = make_user("no-mail", "resident")
    _filed(north_branch, nobody, date(2026, 11, 3))
    assert _counts(remind(at(2026, 11, 26, 6))) == (0, 0)
    assert mailoutbox == []


def test_a_dry_run_counts_and_sends_nothing(north_branch, rita, remind, mailoutbox):
    lost = _filed(north_branch, rita, date(2026, 11, 3))
    result = remind(at(2026, 11, 26, 6), dry_run=True)
    assert (result.due, result.applied, result.dry_run) == (1, 1, True)
    assert mailoutbox == []
    assert LostReport.objects.get(pk=lost.pk).reminder_sent_for_expiry is None


def test_a_failed_e_mail_is_recorded_and_not_retried(
    north_branch, rita, remind, mailoutbox, monkeypatch
):
    def refuse(self, *args, **kwargs):
        raise ConnectionRefusedError

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    _filed(north_branch, rita, date(2026, 11, 3))
    assert _counts(remind(at(2026, 11, 26, 6))) == (1, 1)
    assert Event.objects.filter(action="impound.lost.reminded_email_failed").count() == 1
    assert _counts(remind(at(2026, 11, 27, 6))) == (0, 0)
