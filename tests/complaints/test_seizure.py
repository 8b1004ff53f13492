"""The barking-dog seizure service (Glencoe 701 Subd. 5; RES-07, RES-08, REC-05): it
refuses until all seven conditions are recorded, reads condition 3 from the complaint
history, stamps condition 1, logs contact attempts, opens the impound case and issues
the written notice. North Branch's ordinance has no such seizure."""

from datetime import timedelta

import pytest

from complaints.models import Outcome, Status
from complaints.seizure import (
    IMPOUND_GROUND,
    prior_barking_complaints,
    seizure_notice,
    seizure_record,
    seizure_rule,
)
from complaints.seizure_models import BarkingSeizure, ContactAttempt
from impound.models import CaseStatus, ImpoundCase
from impound.services.holds import hold_end
from kernel.kept import RecordKept
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.complaints.helpers import at, take_complaint
from tests.complaints.seizure_helpers import (
    NOW,
    all_seven,
    earlier_and_now,
    failed_attempt,
    glencoe_pound,
)
from tests.conftest import make_user
from tests.pdf import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-15T22:00")]

CONDITION_FIELDS = {
    "complainant_contemporaneous": False,
    "barking_meets_criteria": False,
    "contact_failed": False,
    "no_forced_entry": False,
    "entry_means": "",
    "no_less_intrusive": False,
    "less_intrusive": "",
    "notice_place": "",
}


@pytest.fixture
def ready(glencoe, officer):
    earlier, tonight = earlier_and_now(glencoe, officer)
    failed_attempt(tonight, officer)
    return earlier, tonight, glencoe_pound(glencoe)


def _fields(exc):
    return {c.field for c in exc.value.checks}


def test_all_seven_seize_the_dog_into_the_pound_with_the_normal_hold(ready, officer, glencoe):
    earlier, tonight, pound = ready
    seizure = seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    case = seizure.impound_case
    assert case.ground == IMPOUND_GROUND and case.status == CaseStatus.HELD
    assert case.ground_citation == "Glencoe 701 Subd. 5"
    # The normal Subd. 13 hold: the same end the impound app computes for any intake.
    normal = hold_end(glencoe, pound, key="impound_hold_business_days", start=NOW.date())
    assert case.hold_ends_on == normal.ends_on and case.hold_key == "impound_hold_business_days"
    assert case.seized_where.startswith("12 North Elm Street")
    tonight.refresh_from_db()
    assert tonight.outcome == Outcome.IMPOUNDMENT and tonight.status == Status.CLOSED
    assert tonight.impound_case == case
    # Condition 1 is stamped, condition 3 is the earlier complaint the history holds.
    assert seizure.complainant_confirmed_at == NOW
    assert seizure.complainant_name == "Nora Neighbour"
    assert seizure.prior_complaint == earlier and seizure.prior_count == 1
    assert seizure.contact_attempt_count == 1
    assert seizure.barking_reading == ""  # no barking facts were recorded
    assert seizure.citation == "Glencoe 701 Subd. 5 (Seizure of Barking Dog Noise Abatement)"
    actions = set(Event.objects.for_object(tonight).values_list("action", flat=True))
    assert {"complaints.seizure.seized", "complaints.seizure.contact_attempted"} <= actions
    assert seizure.history.count() == 2  # created, then its notice linked


@pytest.mark.parametrize("missing", sorted(CONDITION_FIELDS))
def test_each_condition_left_out_refuses_and_nothing_is_written(ready, officer, missing):
    _earlier, tonight, pound = ready
    fields = all_seven(pound, **{missing: CONDITION_FIELDS[missing]})
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, now=NOW, **fields)
    assert _fields(exc) == {missing}
    assert "Glencoe 701 Subd. 5" in str(exc.value)
    assert not BarkingSeizure.objects.exists() and not ImpoundCase.objects.exists()
    tonight.refresh_from_db()
    assert tonight.is_open and tonight.outcome == ""


def test_nothing_recorded_lists_every_condition_at_once(ready, officer):
    _earlier, tonight, _pound = ready
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, pound=None, now=NOW)
    assert _fields(exc) == set(CONDITION_FIELDS) | {"pound"}


def test_a_passkey_needs_the_key_holder_named(ready, officer):
    _earlier, tonight, pound = ready
    with pytest.raises(Refused) as exc:
        seizure_record(
            complaint=tonight, actor=officer, now=NOW, **all_seven(pound, entry_means="passkey")
        )
    assert _fields(exc) == {"passkey_from"}
    seizure = seizure_record(
        complaint=tonight,
        actor=officer,
        now=NOW,
        **all_seven(pound, entry_means="passkey", passkey_from="Pat Manager, landlord"),
    )
    assert seizure.passkey_from == "Pat Manager, landlord"


def test_condition_four_needs_a_logged_attempt_that_failed(glencoe, officer):
    _earlier, tonight = earlier_and_now(glencoe, officer)
    pound = glencoe_pound(glencoe)
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    assert _fields(exc) == {"contact_failed"}  # none logged: the checkbox is not enough
    failed_attempt(tonight, officer, result="reached")
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    assert "did not fail" in str(exc.value)
    assert ContactAttempt.objects.filter(complaint=tonight).count() == 1


def test_an_anonymous_complaint_cannot_support_a_seizure(glencoe, officer):
    _earlier, tonight = earlier_and_now(glencoe, officer, anonymous=True)
    failed_attempt(tonight, officer)
    with pytest.raises(Refused) as exc:
        seizure_record(
            complaint=tonight, actor=officer, now=NOW, **all_seven(glencoe_pound(glencoe))
        )
    assert _fields(exc) == {"complainant_contemporaneous"}
    assert "anonymous" in str(exc.value)


def test_a_complaint_received_on_an_earlier_day_is_not_contemporaneous(glencoe, officer):
    earlier, tonight = earlier_and_now(glencoe, officer)
    failed_attempt(earlier, officer)
    with pytest.raises(Refused) as exc:
        seizure_record(
            complaint=earlier, actor=officer, now=NOW, **all_seven(glencoe_pound(glencoe))
        )
    # Received two days ago; and it has no earlier complaint of its own either.
    assert _fields(exc) == {"complainant_contemporaneous", ""}


# --- Condition 3, read from the complaint history --------------------------------------


def test_condition_three_holds_for_a_barking_complaint_two_days_earlier(glencoe, officer):
    earlier, tonight = earlier_and_now(glencoe, officer)
    assert list(prior_barking_complaints(tonight)) == [earlier]


def test_condition_three_fails_for_an_earlier_complaint_the_same_day(glencoe, officer):
    _same_day, tonight = earlier_and_now(glencoe, officer, earlier_when=at(2026, 6, 15, 0, 5))
    assert list(prior_barking_complaints(tonight)) == []
    failed_attempt(tonight, officer)
    with pytest.raises(Refused) as exc:
        seizure_record(
            complaint=tonight, actor=officer, now=NOW, **all_seven(glencoe_pound(glencoe))
        )
    assert _fields(exc) == {""}
    assert "Glencoe 701 Subd. 5 (Seizure of Barking Dog, cond. 3)" in str(exc.value)


def test_condition_three_counts_the_day_before_just_before_midnight(glencoe, officer):
    earlier, tonight = earlier_and_now(glencoe, officer, earlier_when=at(2026, 6, 14, 23, 59))
    assert list(prior_barking_complaints(tonight)) == [earlier]


def test_condition_three_fails_when_the_earlier_complaint_was_not_about_barking(glencoe, officer):
    _litter, tonight = earlier_and_now(glencoe, officer, earlier_kind="running_at_large")
    assert list(prior_barking_complaints(tonight)) == []


def test_condition_three_fails_for_another_address_or_another_city(glencoe, north_branch, officer):
    take_complaint(glencoe, officer, when=NOW - timedelta(days=2), address_line="14 Elm Street")
    take_complaint(north_branch, officer, when=NOW - timedelta(days=2))
    tonight = take_complaint(glencoe, officer, when=NOW - timedelta(minutes=30))
    assert list(prior_barking_complaints(tonight)) == []


def test_condition_three_cannot_be_typed_in(ready, officer):
    _earlier, tonight, pound = ready
    with pytest.raises(TypeError):
        seizure_record(
            complaint=tonight, actor=officer, now=NOW, prior_complaint=True, **all_seven(pound)
        )


# --- North Branch, other kinds, other cities, records kept ------------------------------


def test_north_branch_has_no_seizure_and_refuses(north_branch, officer):
    assert seizure_rule(north_branch, on=NOW.date()) is None
    _earlier, tonight = earlier_and_now(north_branch, officer)
    pound = glencoe_pound(north_branch)
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    assert "City of North Branch's ordinance has no seizure of a barking dog" in str(exc.value)
    with pytest.raises(Refused):
        failed_attempt(tonight, officer)
    assert not ImpoundCase.objects.exists() and not ContactAttempt.objects.exists()


def test_only_a_barking_complaint_leads_to_a_seizure(glencoe, officer):
    tonight = take_complaint(glencoe, officer, kind="running_at_large", when=NOW)
    with pytest.raises(Refused) as exc:
        seizure_record(
            complaint=tonight, actor=officer, now=NOW, **all_seven(glencoe_pound(glencoe))
        )
    assert "Only a barking complaint" in str(exc.value)


def test_an_officer_of_another_city_is_refused(ready, north_branch):
    _earlier, tonight, pound = ready
    nb_officer = make_user("nbo", "officer", [north_branch])
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=nb_officer, now=NOW, **all_seven(pound))
    assert "You do not serve City of Glencoe" in str(exc.value)


def test_a_seized_complaint_cannot_be_seized_again(ready, officer):
    _earlier, tonight, pound = ready
    seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    with pytest.raises(Refused) as exc:
        seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    assert "closed" in str(exc.value)
    assert ImpoundCase.objects.count() == 1


def test_seizures_and_attempts_are_never_deleted(ready, officer):
    _earlier, tonight, pound = ready
    seizure = seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    with pytest.raises(RecordKept, match="Barking seizures are kept"):
        seizure.delete()
    with pytest.raises(RecordKept):
        BarkingSeizure.objects.all().delete()
    with pytest.raises(RecordKept):
        ContactAttempt.objects.first().delete()


def test_a_contact_attempt_cannot_be_in_the_future(glencoe, officer):
    from complaints.seizure import contact_attempt_record

    _earlier, tonight = earlier_and_now(glencoe, officer)
    with pytest.raises(Refused) as exc:
        contact_attempt_record(
            complaint=tonight,
            actor=officer,
            attempted_at=NOW + timedelta(minutes=1),
            method="door",
            contacted="Owner",
            result="no_answer",
            now=NOW,
        )
    assert _fields(exc) == {"attempted_at"}


# --- The written notice (REC-05) --------------------------------------------------------


def test_the_notice_pdf_names_the_address_the_time_and_the_pound(ready, officer):
    _earlier, tonight, pound = ready
    seizure = seizure_record(complaint=tonight, actor=officer, now=NOW, **all_seven(pound))
    document = seizure_notice(seizure)
    assert document is not None and seizure.notice == document
    text = pdf_text(document_pdf(document))
    assert "Notice of seizure of a barking dog" in text
    assert "12 North Elm Street" in text
    assert "seized at 12 North Elm Street on Monday, June 15, 2026 at 10:00 p.m." in text
    assert seizure.impound_case.number in text and "Glencoe Pound" in text
    assert "Front door" in text
    assert "Glencoe 701 Subd. 5 (Seizure of Barking Dog Noise Abatement)" in text
    assert "Glencoe 701 Subd. 5 (Disposition of Seized Dogs)" in text
    assert seizure.impound_case.hold_citation in text
    assert document_pdf(document) == document_pdf(document)  # the archived bytes
