"""Complaint services: intake, repeat addresses, facts, entries, the outcome (RES-04)."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from complaints.models import Complaint, Outcome, Status
from complaints.services import (
    address_key,
    earlier_at_address,
    entry_bases,
    entry_record,
    facts_record,
    record_outcome,
    repeat_addresses,
)
from impound.models import ImpoundCase
from kernel.kept import RecordKept
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.complaints.helpers import at, take_complaint
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.licensing.factories import AnimalFactory, PremisesFactory

WHEN = at(2026, 6, 15, 21, 0)


def test_address_key_normalizes_spelling():
    assert address_key("12 N. Elm Street") == address_key("12 north elm st")
    assert address_key("12 Elm St", "Apt 3") == address_key("12 elm street apartment 3")
    assert address_key("12 Elm St") != address_key("14 Elm St")


def test_intake_records_the_complaint_with_history_and_event(north_branch, clerk):
    complaint = take_complaint(north_branch, clerk)
    assert complaint.status == Status.OPEN and complaint.taken_by == clerk
    assert complaint.history.count() == 1
    assert complaint.history.first().history_user == clerk
    event = Event.objects.for_object(complaint).get()
    assert event.action == "complaints.complaint.received"


def test_intake_matches_the_address_to_the_registrys_premises(north_branch, clerk):
    premises = PremisesFactory(jurisdiction=north_branch, address_line="12 N Elm St")
    complaint = take_complaint(north_branch, clerk, address_line="12 North Elm Street")
    assert complaint.premises == premises


def test_earlier_complaints_at_the_same_address_are_found_in_the_city_only(
    north_branch, glencoe, clerk, officer
):
    first = take_complaint(north_branch, clerk, address_line="12 N. Elm St.", when=WHEN)
    take_complaint(glencoe, officer, address_line="12 North Elm Street", when=WHEN)
    later = WHEN + timedelta(days=2)
    second = take_complaint(north_branch, clerk, kind="litter", when=later)
    assert list(earlier_at_address(second)) == [first]
    assert list(repeat_addresses(clerk, "12 north elm street")) == [second, first]


def test_an_identified_complainant_needs_a_name_and_a_way_to_reach_them(north_branch, clerk):
    with pytest.raises(Refused) as exc:
        take_complaint(north_branch, clerk, complainant_name="", complainant_phone="")
    assert {c.field for c in exc.value.checks} == {"complainant_name", "complainant_phone"}
    anonymous = take_complaint(
        north_branch, clerk, anonymous=True, complainant_name="kept?", complainant_phone=""
    )
    assert anonymous.complainant_name == ""  # an anonymous complaint keeps no name


def test_it_refuses_a_time_received_in_the_future_or_before_it_happened(north_branch, clerk):
    with pytest.raises(Refused) as exc:
        take_complaint(north_branch, clerk, received_at=WHEN + timedelta(hours=1))
    assert exc.value.checks[0].field == "received_at"
    with pytest.raises(Refused) as exc:
        take_complaint(north_branch, clerk, occurred_at=WHEN + timedelta(minutes=1))
    assert exc.value.checks[0].field == "occurred_at"


def test_it_refuses_another_citys_animal_and_a_city_the_actor_does_not_serve(
    north_branch, glencoe, clerk, glencoe_clerk
):
    gl_dog = AnimalFactory(jurisdiction=glencoe)
    with pytest.raises(Refused):
        take_complaint(north_branch, clerk, animal=gl_dog)
    with pytest.raises(Refused):
        take_complaint(north_branch, glencoe_clerk)


def test_a_known_animal_brings_its_owner(north_branch, clerk):
    dog = AnimalFactory(jurisdiction=north_branch)
    assert take_complaint(north_branch, clerk, animal=dog).owner == dog.owner


def test_complaints_are_never_deleted(north_branch, clerk):
    complaint = take_complaint(north_branch, clerk)
    with pytest.raises(RecordKept, match="Complaints are kept; they are never deleted."):
        complaint.delete()
    with pytest.raises(RecordKept):
        Complaint.objects.all().delete()


def test_facts_are_recorded_and_corrected_with_history(north_branch, clerk, officer):
    complaint = take_complaint(north_branch, clerk)
    fields = dict(
        started_at=WHEN - timedelta(minutes=30),
        ended_at=WHEN,
        pattern="continuous",
        audible_off_premises=True,
    )
    facts = facts_record(
        complaint=complaint, actor=officer, topic="barking_facts", now=WHEN, **fields
    )
    fields["ended_at"] = WHEN - timedelta(minutes=20)
    facts_record(complaint=complaint, actor=officer, topic="barking_facts", now=WHEN, **fields)
    facts.refresh_from_db()
    assert facts.minutes == 10 and facts.history.count() == 2


def test_facts_must_fit_the_kind_of_complaint(north_branch, clerk, officer):
    complaint = take_complaint(north_branch, clerk, kind="litter")
    with pytest.raises(Refused):
        facts_record(
            complaint=complaint,
            actor=officer,
            topic="restraint_facts",
            location="park",
            restraint="none",
        )


def test_barking_must_end_after_it_starts(north_branch, clerk, officer):
    complaint = take_complaint(north_branch, clerk)
    with pytest.raises(Refused) as exc:
        facts_record(
            complaint=complaint,
            actor=officer,
            topic="barking_facts",
            started_at=WHEN,
            ended_at=WHEN,
            pattern="continuous",
        )
    assert exc.value.checks[0].field == "ended_at"


def test_entry_bases_are_each_citys_own(north_branch, glencoe):
    nb = {b.code: b.citation for b in entry_bases(north_branch, on=WHEN.date())}
    gl = {b.code: b.citation for b in entry_bases(glencoe, on=WHEN.date())}
    assert nb["exhibit_dog_or_license"] == "North Branch Sec. 6-96(5)"
    assert nb["remove_quarantined_animal"] == "North Branch Sec. 6-98(6)"
    assert gl == {"reasonable_cause_division_a": "Glencoe 701 Subd. 16"}


@pytest.mark.clock("2026-06-15T22:00")
def test_an_entry_is_logged_with_its_legal_basis(glencoe, officer):
    complaint = take_complaint(glencoe, officer)
    entry = entry_record(
        complaint=complaint,
        actor=officer,
        basis="reasonable_cause_division_a",
        entered_at=at(2026, 6, 15, 21, 30),
        findings="Dog in the yard, barking.",
    )
    assert entry.basis_citation == "Glencoe 701 Subd. 16" and entry.officer == officer
    with pytest.raises(Refused) as exc:
        entry_record(
            complaint=complaint,
            actor=officer,
            basis="exhibit_dog_or_license",  # North Branch's, not Glencoe's
            entered_at=at(2026, 6, 15, 21, 30),
            findings="",
        )
    assert exc.value.checks[0].field == "basis"


# --- Outcome (RES-04) ---------------------------------------------------------------------


@pytest.mark.clock("2026-06-15T22:00")
def test_north_branch_officer_may_cite_instead_of_impounding(north_branch, clerk, officer):
    complaint = take_complaint(north_branch, clerk, kind="running_at_large")
    record_outcome(complaint=complaint, actor=officer, outcome=Outcome.CITATION)
    complaint.refresh_from_db()
    assert complaint.outcome == Outcome.CITATION and complaint.status == Status.CLOSED
    assert complaint.outcome_citation == "North Branch Sec. 6-69"
    assert complaint.impound_case is None


@pytest.mark.clock("2026-06-15T22:00")
def test_glencoe_at_large_without_impoundment_needs_a_reason(glencoe, officer):
    complaint = take_complaint(glencoe, officer, kind="running_at_large")
    with pytest.raises(Refused) as exc:
        record_outcome(complaint=complaint, actor=officer, outcome=Outcome.WARNING)
    check = exc.value.checks[0]
    assert check.field == "reason" and check.citation == "Glencoe 701 Subd. 13"
    record_outcome(
        complaint=complaint,
        actor=officer,
        outcome=Outcome.WARNING,
        reason="Owner was home and took the dog in at once.",
    )
    complaint.refresh_from_db()
    assert complaint.outcome == Outcome.WARNING and complaint.outcome_reason


@pytest.mark.clock("2026-06-15T22:00")
def test_glencoe_barking_warning_needs_no_reason(glencoe, officer):
    complaint = take_complaint(glencoe, officer, kind="barking")
    record_outcome(complaint=complaint, actor=officer, outcome=Outcome.WARNING)
    assert complaint.outcome == Outcome.WARNING


@pytest.mark.clock("2026-06-15T22:00")
def test_impoundment_opens_the_impound_case_with_the_facts(glencoe, north_branch, officer):
    dog = AnimalFactory(jurisdiction=glencoe)
    pound = make_pound(glencoe)
    complaint = take_complaint(
        glencoe,
        officer,
        kind="running_at_large",
        animal=dog,
        location_note="in the park",
        when=at(2026, 6, 15, 21, 0),
    )
    record_outcome(
        complaint=complaint,
        actor=officer,
        outcome=Outcome.IMPOUNDMENT,
        pound=pound,
        ground="dog_at_large",
    )
    complaint.refresh_from_db()
    case = complaint.impound_case
    assert isinstance(case, ImpoundCase) and case.animal == dog
    assert case.seized_on == date(2026, 6, 15)  # the local date it happened
    assert "12 North Elm Street" in case.seized_where and "in the park" in case.seized_where
    assert case.ground == "dog_at_large" and case.jurisdiction == glencoe


@pytest.mark.clock("2026-06-15T22:00")
def test_impoundment_needs_a_pound_and_a_ground_and_the_outcome_is_once(north_branch, officer):
    complaint = take_complaint(north_branch, officer, kind="running_at_large")
    with pytest.raises(Refused) as exc:
        record_outcome(complaint=complaint, actor=officer, outcome=Outcome.IMPOUNDMENT)
    assert exc.value.checks[0].field == "pound"
    complaint.refresh_from_db()
    assert complaint.outcome == "" and ImpoundCase.objects.count() == 0
    record_outcome(complaint=complaint, actor=officer, outcome=Outcome.NONE)
    complaint.refresh_from_db()
    assert complaint.status == Status.CLOSED and not complaint.is_open
    assert complaint.closed_on == timezone.localdate(complaint.outcome_at)
    assert complaint.status_changed_at == complaint.outcome_at
    with pytest.raises(Refused, match="The complaint is closed."):
        record_outcome(complaint=complaint, actor=officer, outcome=Outcome.WARNING)


@pytest.mark.clock("2026-06-15T22:00")
def test_an_officer_of_another_city_cannot_record_an_outcome(glencoe, north_branch, officer):
    complaint = take_complaint(glencoe, officer)
    nb_officer = make_user("ned", "officer", [north_branch])
    with pytest.raises(Refused):
        record_outcome(complaint=complaint, actor=nb_officer, outcome=Outcome.NONE)
