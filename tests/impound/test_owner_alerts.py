"""The owner of a registered animal hears when the pound takes it in (IMP-05, REC-04;
NB Sec. 6-68 "every possible effort"; Glencoe 701 Subd. 14): an e-mail after commit, a
text where the city turns texts on and a provider is configured, each attempt recorded
on the case, never twice."""

from datetime import date

import pytest
from django.urls import reverse
from django.utils.formats import date_format, time_format

from impound.services import owner_alerts
from impound.services.intake import case_identify_owner
from impound.services.notices import case_records, claim_by
from notices import sms
from notices.models import ServiceMethod
from ordinance.amendments import rule_amend
from ordinance.models import Event

from .factories import make_pound
from .helpers import at, owned_dog, take_in

pytestmark = pytest.mark.django_db
CLOCK = "2026-12-15T10:00"
GROUND = {"north-branch": "unlicensed_at_large", "glencoe": "dog_at_large"}
LOCMEM = "notices.sms.LocmemBackend"


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe, phone="320-555-0100")


@pytest.fixture(autouse=True)
def _texts_outbox():
    sms.outbox.clear()
    yield
    sms.outbox.clear()


def _in(city, pound, officer, animal=None):
    return take_in(city, pound, officer, at(2026, 12, 15, 9), GROUND[city.slug], animal=animal)


def _texts_on(city):
    rule_amend(
        jurisdiction=city,
        key=owner_alerts.TEXT_KEY,
        value=True,
        effective_from=date(2026, 1, 1),
        ordinance_ref="Council Res. 2026-11",
    )


class BrokenBackend(sms.BaseSmsBackend):
    def send(self, message):
        raise sms.SmsError("provider down")


@pytest.mark.clock(CLOCK)
def test_intake_of_a_registered_animal_emails_the_owner_after_commit(
    north_branch, officer, pound, mailoutbox, django_capture_on_commit_callbacks
):
    animal = owned_dog(north_branch)
    owner = animal.owner
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer, animal)
        assert mailoutbox == []  # nothing before the commit
    [message] = mailoutbox
    assert message.to == [owner.email]
    assert case.number in message.subject
    deadline = claim_by(case)
    body = message.body
    assert owner.name in body and animal.name in body
    assert (
        f"Claim your animal by {time_format(deadline['time'], 'g:i a')} on "
        f"{date_format(deadline['date'], 'l, F j, Y')} ({deadline['citation']})"
    ) in body
    assert "County Animal Pound" in body and "400 Kennel Road" in body
    assert "320-555-0100" in body and "Monday 9:00 a.m.-5:00 p.m." in body
    assert "North Branch Sec. 6-68" in body
    [record] = case_records(case)
    assert record.method == ServiceMethod.EMAIL
    assert record.served_to == owner.email
    assert record.succeeded and record.recorded_by is None and record.document is None
    assert Event.objects.for_object(case).filter(action="impound.notice.owner_alert").exists()


@pytest.mark.clock(CLOCK)
def test_one_email_per_case_and_owner_whatever_runs_again(
    north_branch, officer, pound, mailoutbox, django_capture_on_commit_callbacks
):
    animal = owned_dog(north_branch)
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer, animal)
    assert owner_alerts.owner_alerts_send(case_pk=case.pk) == []  # a retried task
    with django_capture_on_commit_callbacks(execute=True):
        case_identify_owner(case=case, animal=animal, actor=officer)  # identified again
    assert len(mailoutbox) == 1
    assert len(case_records(case)) == 1
    # Another owner identified for the case: that owner hears once.
    other = owned_dog(north_branch)
    with django_capture_on_commit_callbacks(execute=True):
        case_identify_owner(case=case, animal=other, actor=officer)
    assert [m.to for m in mailoutbox] == [[animal.owner.email], [other.owner.email]]


@pytest.mark.clock(CLOCK)
def test_an_owner_identified_later_hears_then(
    north_branch, officer, pound, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer)  # a stray: no owner, nothing sent
    assert mailoutbox == [] and not case_records(case)
    animal = owned_dog(north_branch)
    with django_capture_on_commit_callbacks(execute=True):
        case_identify_owner(case=case, animal=animal, actor=officer)
    assert [m.to for m in mailoutbox] == [[animal.owner.email]]


@pytest.mark.clock(CLOCK)
def test_no_text_unless_the_city_turns_texts_on_and_a_provider_is_set(
    north_branch, officer, pound, settings, django_capture_on_commit_callbacks
):
    settings.SMS_BACKEND = LOCMEM
    with django_capture_on_commit_callbacks(execute=True):
        _in(north_branch, pound, officer, owned_dog(north_branch))  # the city: off
    assert sms.outbox == []
    _texts_on(north_branch)
    settings.SMS_BACKEND = ""  # the installation: no provider
    with django_capture_on_commit_callbacks(execute=True):
        _in(north_branch, pound, officer, owned_dog(north_branch))
    assert sms.outbox == []


@pytest.mark.clock(CLOCK)
def test_a_city_with_texts_on_texts_the_owner_once_and_records_it(
    north_branch, officer, pound, settings, django_capture_on_commit_callbacks
):
    settings.SMS_BACKEND = LOCMEM
    _texts_on(north_branch)
    animal = owned_dog(north_branch)
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer, animal)
    [text] = sms.outbox
    assert text.to == animal.owner.phone
    deadline = claim_by(case)
    assert case.number in text.body and deadline["citation"] in text.body
    assert date_format(deadline["date"], "l, F j, Y") in text.body
    assert "400 Kennel Road" in text.body
    methods = {r.method: r for r in case_records(case)}
    assert set(methods) == {ServiceMethod.EMAIL, ServiceMethod.TEXT}
    assert methods[ServiceMethod.TEXT].succeeded
    assert methods[ServiceMethod.TEXT].served_to == animal.owner.phone
    owner_alerts.owner_alerts_send(case_pk=case.pk)
    assert len(sms.outbox) == 1


@pytest.mark.clock(CLOCK)
def test_a_failed_attempt_is_recorded_and_tried_again_on_the_next_run(
    north_branch,
    officer,
    pound,
    settings,
    monkeypatch,
    mailoutbox,
    django_capture_on_commit_callbacks,
):
    settings.SMS_BACKEND = f"{__name__}.BrokenBackend"
    _texts_on(north_branch)

    def refused(self, *args, **kwargs):
        raise ConnectionRefusedError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refused)
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer, owned_dog(north_branch))
    records = list(case_records(case))
    assert {r.method for r in records} == {ServiceMethod.EMAIL, ServiceMethod.TEXT}
    assert not any(r.succeeded for r in records)
    assert any("provider down" in r.result for r in records)
    monkeypatch.undo()
    settings.SMS_BACKEND = LOCMEM
    sent = owner_alerts.owner_alerts_send(case_pk=case.pk)
    assert {r.method for r in sent} == {ServiceMethod.EMAIL, ServiceMethod.TEXT}
    assert len(mailoutbox) == 1 and len(sms.outbox) == 1


@pytest.mark.clock(CLOCK)
def test_the_attempts_show_in_the_cases_notice_log(
    north_branch, officer, pound, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        case = _in(north_branch, pound, officer, owned_dog(north_branch))
    client.force_login(officer)
    html = client.get(reverse("impound:case_notices", args=[case.pk])).content.decode()
    assert "E-mail sent at intake" in html


def test_the_console_backend_writes_the_message(settings, capsys):
    settings.SMS_BACKEND = "notices.sms.ConsoleBackend"
    assert sms.sms_enabled()
    assert sms.send_text("651-555-0101", "Your dog is at the pound").startswith("console-")
    assert "651-555-0101" in capsys.readouterr().out


def test_no_backend_sends_nothing(settings):
    settings.SMS_BACKEND = ""
    assert not sms.sms_enabled()
    with pytest.raises(sms.SmsError):
        sms.send_text("651-555-0101", "x")
