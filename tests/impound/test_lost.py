"""Lost-pet reports and matching them to intakes (IMP-05, REC-04: North
Branch Sec. 6-68 "every possible effort to notify the owners", Glencoe 701 Subds. 13, 14).

One service scores a report against a case: species is required, a tag or microchip
that agrees is decisive (one that differs rules the animal out), otherwise sex, color,
breed, place and date add up. It runs when a report is filed and after an intake
commits; each (report, case) is stored and e-mailed once. The resident's e-mail carries
only what the found page shows, never a finder's or owner's data.
"""

from datetime import date

import pytest
import time_machine
from django.core import mail

from impound.models import LostMatch, LostReport, LostStatus
from impound.services.lost import (
    lost_report_close,
    lost_report_renew,
    match_case,
    match_report,
)
from impound.services.lost_mail import lost_match_notify
from impound.services.lost_matching import match_score, street_level, words
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.impound.helpers import at, take_in
from tests.impound.lost_helpers import (
    FINDER_ADDRESS,
    FINDER_NAME,
    NB_GROUND,
    intake,
    report,
)

pytestmark = pytest.mark.django_db
WINDOW = 30  # the tests' own window, passed in (the profile's value is read elsewhere)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


@pytest.fixture
def rita(resident):
    resident.email = "rita@example.org"
    resident.save()
    return resident


@pytest.fixture
def nb_officer(north_branch):
    return make_user("oscar", "officer", [north_branch], email="oscar@nb.example.org")


def _case(city, pound, officer, when=None, **extra):
    extra.setdefault("found_area", "Main St and 5th Ave")  # the public place
    return take_in(city, pound, officer, when or at(2026, 11, 30, 10), NB_GROUND, **extra)


# --- The score -------------------------------------------------------------------------


def test_words_are_normalised_and_filler_dropped():
    assert words("Black Lab mix") == {"black", "labrador"}
    assert words("GREY tabby") == {"gray", "tabby"}
    assert street_level("12 Elm St") == "Elm St"
    assert street_level("Main St and 5th Ave") == "Main St and 5th Ave"


def test_a_description_alike_is_a_likely_match(north_branch, pound, officer, rita):
    case = _case(north_branch, pound, officer, breed="Labrador mix")
    lost = report(north_branch, rita)
    result = match_score(lost, case, window_days=WINDOW)
    assert result.likely and not result.decisive
    assert result.score >= 60
    assert "Same sex" in result.reasons and "Breed alike" in result.reasons
    assert "Found near where it was lost" in result.reasons  # Main St in both


def test_another_color_is_not_likely(north_branch, pound, officer, rita):
    case = _case(north_branch, pound, officer, color="White", breed="Poodle")
    result = match_score(report(north_branch, rita), case, window_days=WINDOW)
    assert not result.likely


def test_species_mismatch_never_matches_even_with_the_same_microchip(
    north_branch, pound, officer, rita
):
    case = _case(north_branch, pound, officer, species="dog", microchip="985112003344556")
    lost = report(north_branch, rita, species="cat", microchip="985112003344556")
    result = match_score(lost, case, window_days=WINDOW)
    assert not result.likely and result.ruled_out == "Another species"


def test_the_same_microchip_is_decisive_whatever_else_differs(north_branch, pound, officer, rita):
    case = _case(
        north_branch, pound, officer, color="White", sex="male", microchip="985112003344556"
    )
    lost = report(north_branch, rita, microchip="985112003344556", lost_on=date(2026, 6, 1))
    result = match_score(lost, case, window_days=WINDOW)
    assert result.decisive and result.likely and result.score == 100
    assert result.reasons == ("The microchip number matches",)


def test_another_microchip_rules_the_animal_out(north_branch, pound, officer, rita):
    case = _case(north_branch, pound, officer, microchip="985112003344556")
    lost = report(north_branch, rita, microchip="985112009999999")
    assert match_score(lost, case, window_days=WINDOW).ruled_out == "Another microchip number"


def test_the_tag_number_is_decisive(north_branch, pound, officer, rita):
    case = _case(
        north_branch, pound, officer, color="Brown", tag_present=True, tag_text="NB 2026 #0142"
    )
    lost = report(north_branch, rita, tag_number="0142")
    result = match_score(lost, case, window_days=WINDOW)
    assert result.decisive and result.reasons == ("The tag number matches",)


def test_the_intake_must_fall_in_the_window_after_the_loss(north_branch, pound, officer, rita):
    before = _case(north_branch, pound, officer, at(2026, 11, 27, 10))
    lost = report(north_branch, rita, lost_on=date(2026, 11, 28))
    assert match_score(lost, before, window_days=WINDOW).ruled_out
    long_after = report(north_branch, rita, lost_on=date(2026, 10, 1))
    case = _case(north_branch, pound, officer)
    assert match_score(long_after, case, window_days=WINDOW).ruled_out
    assert match_score(long_after, case, window_days=90).likely


def test_another_sex_or_city_rules_out(north_branch, glencoe, pound, officer, rita):
    case = _case(north_branch, pound, officer, sex="male")
    assert match_score(report(north_branch, rita), case, window_days=WINDOW).ruled_out
    gl_case = take_in(glencoe, pound, officer, at(2026, 11, 30, 10), "dog_at_large")
    assert match_score(report(north_branch, rita), gl_case, window_days=WINDOW).ruled_out


# --- Filing, renewing, closing ------------------------------------------------------------


def test_filing_stores_the_end_from_the_program_setting(north_branch, rita):
    lost = report(north_branch, rita)
    rule = rule_in_force(north_branch, "lost_report_open_days", on=date(2026, 11, 30))
    assert "not in ordinance" in rule.citation and "not an ordinance rule" in rule.label
    assert lost.expires_on == date(2026, 11, 30) + (date(2026, 12, 30) - date(2026, 11, 30))
    assert lost.expires_on == date(2026, 12, 30)  # 30 days, the shipped setting
    assert lost.expires_citation == rule.citation
    assert lost.status == LostStatus.OPEN
    assert Event.objects.filter(action="impound.lost.filed").count() == 1
    assert lost.history.count() == 1


def test_a_house_number_is_not_kept_where_lost(north_branch, rita):
    assert report(north_branch, rita, lost_where="1402 Main St").lost_where == "Main St"


def test_a_future_date_or_a_phone_preference_without_phone_is_refused(north_branch, rita):
    with pytest.raises(Refused) as exc:
        report(north_branch, rita, lost_on=date(2026, 12, 25))
    assert exc.value.checks[0].field == "lost_on"
    with pytest.raises(Refused) as exc:
        report(north_branch, rita, contact_preference="phone", contact_phone="")
    assert exc.value.checks[0].field == "contact_phone"


def test_renewing_moves_the_end_forward_and_reopens_an_expired_report(north_branch, rita):
    lost = report(north_branch, rita)
    with time_machine.travel(at(2026, 12, 20, 9), tick=False):
        lost = lost_report_renew(report=lost, actor=rita)
    assert lost.expires_on == date(2027, 1, 19)
    expired = at(2027, 1, 20, 0, 5)
    assert LostReport.apply_all(LostReport.objects.filter(pk=lost.pk), "expire", at=expired) == 1
    lost.refresh_from_db()
    assert lost.next_statuses() == (LostStatus.OPEN, LostStatus.MATCHED) and lost.may_renew
    with time_machine.travel(at(2027, 2, 1, 9), tick=False):
        lost = lost_report_renew(report=lost, actor=rita)
    assert lost.status == LostStatus.OPEN and lost.expires_on == date(2027, 3, 3)
    assert lost.status_changed_at == at(2027, 2, 1, 9)
    assert Event.objects.filter(action="impound.lost.renewed").count() == 2


def test_a_closed_report_cannot_be_renewed_or_closed_again(north_branch, rita):
    lost = report(north_branch, rita)
    lost = lost_report_close(report=lost, actor=rita, note="Came home by herself")
    assert lost.status == LostStatus.CLOSED and lost.closed_note == "Came home by herself"
    assert not lost.may_renew and lost.next_statuses() == ()
    with pytest.raises(Refused, match="This report is closed."):
        lost_report_renew(report=lost, actor=rita)
    with pytest.raises(Refused, match="This report is closed."):
        lost_report_close(report=lost, actor=rita, note="")


# --- Matching runs, once, and notifies ---------------------------------------------------


def test_filing_matches_the_animals_in_the_pound_and_mails_each_side_once(
    north_branch,
    pound,
    officer,
    nb_officer,
    rita,
    django_capture_on_commit_callbacks,
):
    case = _case(north_branch, pound, officer)
    with django_capture_on_commit_callbacks(execute=True):
        lost = report(north_branch, rita)
    match = LostMatch.objects.get()
    assert (match.report, match.case) == (lost, case)
    lost.refresh_from_db()
    assert lost.status == LostStatus.MATCHED
    assert match.notified_at and match.officer_notified_at
    to_resident = [m for m in mail.outbox if m.to == ["rita@example.org"]]
    to_officers = [m for m in mail.outbox if m.to == ["oscar@nb.example.org"]]
    assert len(to_resident) == 1 and len(to_officers) == 1
    body = to_resident[0].body
    # What the found page shows, the pound's address and hours, the claim-by section...
    assert "Black" in body and "Main St and 5th Ave" in body
    assert pound.address in body and "Monday" in body
    assert case.hold_citation in body and "Claim by" in body
    # ...and nobody's personal data: not the finder, not the case number or ground.
    for private in (FINDER_NAME, FINDER_ADDRESS, case.ground_label, case.number):
        assert private not in body
    # The officer sees the resident's contact and the case.
    officer_body = to_officers[0].body
    assert "rita@example.org" in officer_body and "651-555-0123" in officer_body
    assert case.get_absolute_url() in officer_body
    # Matching and notifying again change nothing.
    with django_capture_on_commit_callbacks(execute=True):
        assert match_report(lost, now=at(2026, 11, 30, 12)) == []
        assert match_case(case, now=at(2026, 11, 30, 12)) == []
    assert lost_match_notify(match_pk=match.pk) == (False, False)
    assert LostMatch.objects.count() == 1 and len(mail.outbox) == 2


def test_a_new_intake_is_matched_after_it_commits(
    north_branch, pound, officer, rita, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        lost = report(north_branch, rita)
    assert not LostMatch.objects.exists() and not mail.outbox
    case = intake(
        north_branch, pound, officer, at(2026, 12, 1, 10), django_capture_on_commit_callbacks
    )
    match = LostMatch.objects.get()
    assert (match.report_id, match.case_id) == (lost.pk, case.pk)
    assert [m.to for m in mail.outbox] == [["rita@example.org"]]  # no officer has an e-mail
    assert Event.objects.filter(action="impound.lost.match_found", subject_id=str(case.pk)).exists()


def test_an_intake_elsewhere_or_of_another_species_matches_nothing(
    north_branch, glencoe, pound, officer, rita, other_resident, django_capture_on_commit_callbacks
):
    report(north_branch, rita)  # a North Branch dog
    report(glencoe, other_resident, species="cat")  # a Glencoe cat
    intake(glencoe, pound, officer, at(2026, 12, 1, 10), django_capture_on_commit_callbacks)
    assert not LostMatch.objects.exists() and not mail.outbox


def test_closed_or_expired_reports_are_not_matched(
    north_branch, pound, officer, rita, other_resident, django_capture_on_commit_callbacks
):
    closed = report(north_branch, rita)
    lost_report_close(report=closed, actor=rita, note="")
    expired = report(north_branch, other_resident)
    LostReport.apply_all(LostReport.objects.filter(pk=expired.pk), "expire", at=at(2026, 12, 1))
    intake(north_branch, pound, officer, at(2026, 12, 1, 10), django_capture_on_commit_callbacks)
    assert not LostMatch.objects.exists()


def test_a_failing_mail_server_loses_no_intake_and_sends_no_second_mail(
    north_branch, pound, officer, rita, django_capture_on_commit_callbacks, monkeypatch
):
    from django.core.mail import EmailMessage

    def broken(self, *a, **k):
        raise OSError("mail server down")

    report(north_branch, rita)
    monkeypatch.setattr(EmailMessage, "send", broken)
    case = intake(
        north_branch, pound, officer, at(2026, 12, 1, 10), django_capture_on_commit_callbacks
    )
    assert case.pk and LostMatch.objects.get().notified_at is not None
    assert Event.objects.filter(action="impound.lost.resident_email_failed").count() == 1
    monkeypatch.undo()
    assert lost_match_notify(match_pk=LostMatch.objects.get().pk) == (False, False)
    assert not mail.outbox
