"""City Attorney review, the Review Panel's hearing and its findings (DD-05..DD-08, MN-08;
C26, C27, C28; Glencoe 701 Subd. 15(C), (D), (I); Minn. Stat. 347.541)."""

from datetime import date, timedelta

import pytest
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from dangerous_dogs.models import (
    CaseStatus,
    DeclaredBy,
    Designation,
    DesignationCase,
    HearingFinding,
    PanelHearing,
    Seat,
    Vote,
)
from dangerous_dogs.services import attorney, findings
from dangerous_dogs.services import hearing as svc
from dangerous_dogs.services import panel as panel_svc
from notices.models import Decision, DecisionOutcome, ServiceMethod, ServiceRecord
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.pdf import pdf_text

from .hearing_helpers import contested, panel, scheduled
from .helpers import at

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


def _fields(err) -> set[str]:
    return {c.field for c in err.value.checks}


def _review(case, officer, outcome, **kw):
    values = {
        "case": case,
        "outcome": outcome,
        "decided_by_name": "Alex Attorney",
        "decided_on": TODAY,
        "reasons": "The bite report and the photos support the designation.",
        "evidence": "Bite report, two photos, the victim's statement",
        "actor": officer,
    }
    values.update(kw)
    return attorney.attorney_review(**values)


# --- City Attorney review (C26) ---------------------------------------------------------


def test_the_city_attorney_refers_the_case_to_the_panel(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY)
    decision = _review(case, officer, "refer")
    case.refresh_from_db()
    assert case.status == CaseStatus.HEARING
    assert decision.kind == "dd_attorney_review" and decision.outcome == DecisionOutcome.REFERRED
    assert decision.citation == "Glencoe 701 Subd. 15(C)"
    assert decision.decided_by_name == "Alex Attorney" and decision.decided_by_capacity
    assert Event.objects.filter(action="dangerous_dogs.case.referred").count() == 1


def test_a_withdrawal_closes_the_case_and_no_requirement_applies(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY)
    decision = _review(case, officer, "withdraw")
    case.refresh_from_db()
    assert decision.outcome == DecisionOutcome.WITHDRAWN
    assert case.status == CaseStatus.WITHDRAWN and not case.is_open
    assert case.closed_on == TODAY and "none of the requirements" in case.closing_note


def test_the_review_needs_reasons_and_evidence_and_a_contested_case(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY)
    with pytest.raises(Refused) as err:
        _review(case, officer, "refer", reasons=" ", evidence="")
    assert _fields(err) == {"reasons", "evidence"}
    with pytest.raises(Refused) as err:
        _review(case, officer, "refer", decided_on=TODAY + timedelta(days=1))
    assert _fields(err) == {"decided_on"}
    with pytest.raises(Refused, match="withdraws the designation or refers"):
        _review(case, officer, "maybe")
    other = make_declared = contested(glencoe, officer, today=TODAY, status=CaseStatus.DEFAULTED)
    with pytest.raises(Refused, match="not possible now"):
        _review(other, officer, "refer")
    assert make_declared.status == CaseStatus.DEFAULTED
    assert not Decision.objects.exists()


# --- Scheduling (C27, DD-06, MN-08) -----------------------------------------------------


def _schedule(case, officer, seats=None, when=None, place="Glencoe City Center"):
    return svc.hearing_schedule(
        case=case,
        scheduled_for=when or at(TODAY + timedelta(days=9), 18),
        place=place,
        seats=panel() if seats is None else seats,
        actor=officer,
    )


def test_scheduling_issues_the_hearing_notice_with_the_owners_rights(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    hearing = _schedule(case, officer)
    assert hearing.seats.count() == 3
    assert hearing.notice.kind == "dd_hearing_notice"
    text = pdf_text(document_pdf(hearing.notice))
    assert "Thu, Dec 10, 2026" in text and "Glencoe City Center" in text
    assert "present evidence" in text and "cross-examine" in text
    assert "burden of proof is on the animal control officer" in text
    assert "preponderance of the evidence" in text
    assert "Cora Council" in text and "Glencoe 701 Subd. 15(D)" in text


def test_a_wrong_composition_is_refused_naming_the_section(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    two_electors = panel()
    two_electors[1] = {"seat": Seat.ELECTOR, "name": "Eve Elector", "impartial": True}
    with pytest.raises(Refused) as err:
        _schedule(case, officer, seats=two_electors)
    assert "seats" in _fields(err)
    assert "Glencoe 701 Subd. 15(D)" in str(err.value)
    with pytest.raises(Refused) as err:
        _schedule(case, officer, seats=panel()[:2])
    assert "seats" in _fields(err)
    assert not PanelHearing.objects.exists()


def test_substitutes_need_whom_they_replace_and_why(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    seats = panel()
    seats[1] = {"seat": Seat.STAFF, "name": "Sam Staff", "impartial": True}
    seats[2] = {
        "seat": Seat.VETERINARIAN,
        "name": "Dr. Vera Vet",
        "substitute_for": "Dr. Victor Vet",
        "impartial": True,
    }
    with pytest.raises(Refused) as err:
        _schedule(case, officer, seats=seats)
    assert _fields(err) == {"seats-1-substitute_for", "seats-2-substitution_reason"}
    seats[1].update(substitute_for="Carl Council", substitution_reason="Neighbour of the owner")
    seats[2]["substitution_reason"] = "Temporarily unavailable"
    hearing = _schedule(case, officer, seats=seats)
    staff = hearing.seats.get(seat=Seat.STAFF)
    assert staff.substitute_for == "Carl Council" and staff.appointed_by == "Mayor"


def test_a_dangerous_designation_needs_every_member_impartial(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    seats = panel()
    seats[0]["impartial"] = False
    with pytest.raises(Refused) as err:
        _schedule(case, officer, seats=seats)
    assert _fields(err) == {"seats-0-impartial"}
    assert "Minn. Stat. 347.541 subd. 4" in str(err.value)


def test_a_potentially_dangerous_designation_does_not_need_the_statutes_impartiality(
    glencoe, officer
):
    case = contested(
        glencoe,
        officer,
        today=TODAY,
        status=CaseStatus.HEARING,
        designation=Designation.POTENTIALLY_DANGEROUS,
    )
    hearing = _schedule(case, officer, seats=panel(impartial=False))
    assert hearing.pk


def test_a_hearing_cannot_be_in_the_past_or_twice(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    with pytest.raises(Refused) as err:
        _schedule(case, officer, when=at(TODAY - timedelta(days=1)), place="")
    assert _fields(err) == {"scheduled_for", "place"}
    _schedule(case, officer)
    with pytest.raises(Refused, match="already scheduled"):
        _schedule(case, officer)


def test_the_hearing_notices_service_is_recorded(glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    hearing = _schedule(case, officer)
    with pytest.raises(Refused) as err:
        svc.hearing_notice_served(
            hearing=hearing,
            method=ServiceMethod.EMAIL,
            served_at=timezone.now(),
            received_on=None,
            actor=officer,
        )
    assert _fields(err) == {"method"}
    record = svc.hearing_notice_served(
        hearing=hearing,
        method=ServiceMethod.PERSONAL,
        served_at=timezone.now(),
        received_on=TODAY,
        actor=officer,
    )
    assert record.document == hearing.notice and record.received_on == TODAY
    with pytest.raises(Refused, match="recorded already"):
        svc.hearing_notice_served(
            hearing=hearing,
            method=ServiceMethod.MAIL,
            served_at=timezone.now(),
            received_on=None,
            actor=officer,
        )


# --- The tally (DD-07) ------------------------------------------------------------------


def test_two_of_three_find_a_dangerous_dog():
    result = panel_svc.tally([Vote.DANGEROUS, Vote.DANGEROUS, Vote.NOT_UPHELD])
    assert (result.members, result.majority, result.finding) == (3, 2, HearingFinding.DANGEROUS)


def test_one_to_one_with_a_member_absent_is_not_a_majority_of_the_members():
    result = panel_svc.tally([Vote.DANGEROUS, Vote.NOT_UPHELD, Vote.ABSENT])
    assert result.finding == HearingFinding.NOT_UPHELD and result.absent == 1


def test_two_potentially_dangerous_votes_find_a_potentially_dangerous_dog():
    result = panel_svc.tally(
        [Vote.POTENTIALLY_DANGEROUS, Vote.POTENTIALLY_DANGEROUS, Vote.NOT_UPHELD]
    )
    assert result.finding == HearingFinding.POTENTIALLY_DANGEROUS


def test_a_dangerous_vote_also_supports_the_lesser_finding():
    result = panel_svc.tally([Vote.DANGEROUS, Vote.POTENTIALLY_DANGEROUS, Vote.NOT_UPHELD])
    assert result.finding == HearingFinding.POTENTIALLY_DANGEROUS


def test_the_finding_never_exceeds_the_notice_of_intent():
    votes = [Vote.DANGEROUS, Vote.DANGEROUS, Vote.DANGEROUS]
    result = panel_svc.tally(votes, noticed=Designation.POTENTIALLY_DANGEROUS)
    assert result.finding == HearingFinding.POTENTIALLY_DANGEROUS


# --- The hearing's record and the findings (C28) ----------------------------------------


def _record(hearing, officer, votes, reasons="The dog bit without provocation.", **kw):
    seats = list(hearing.seats.order_by("pk"))
    values = {
        "held_on": TODAY,
        "witnesses": "Dana Reyes (victim); Olivia Officer",
        "exhibits": "Photos of the injuries; the bite report",
        "owner_appeared": True,
        "owner_evidence": "The owner said the gate was latched and cross-examined the victim.",
        "votes": {s.pk: v for s, v in zip(seats, votes, strict=True)},
        "reasons": reasons,
    }
    values.update(kw)
    return svc.hearing_record(hearing=hearing, record=svc.HearingRecord(**values), actor=officer)


def test_a_two_to_one_dangerous_finding_declares_the_dog_and_issues_findings(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    _record(hearing, officer, [Vote.DANGEROUS, Vote.DANGEROUS, Vote.NOT_UPHELD])
    hearing.refresh_from_db()
    case = DesignationCase.objects.get(pk=hearing.case_id)
    assert hearing.finding == HearingFinding.DANGEROUS
    assert case.status == CaseStatus.DECLARED and case.declared_by == DeclaredBy.PANEL
    assert case.declared_designation == Designation.DANGEROUS
    assert case.declaration == hearing.findings and case.ruling_on == TODAY
    assert case.appeal_deadline == date(2026, 12, 15)
    assert case.appeal_citation == "Glencoe 701 Subd. 15(H)"
    decision = hearing.decision
    assert decision.kind == "dd_panel_finding" and decision.outcome == DecisionOutcome.UPHELD
    assert "without provocation" in decision.reasons
    assert decision.subject_type == ContentType.objects.get_for_model(DesignationCase)
    text = pdf_text(document_pdf(hearing.findings))
    assert "Dangerous dog" in text
    assert "Cora Council" in text and "Not upheld" in text
    assert "within 14 days of the panel's ruling" in text and "Dec 15, 2026" in text
    assert "Glencoe 701 Subd. 15(H)" in text and "City Clerk" in text
    assert "Court of Appeals" in text
    assert "preponderance of the evidence" in text and "burden of proof" in text
    assert "Glencoe 701 Subd. 15(E), (J), (K)" in text and "microchip" in text.lower()
    assert "Police Department" in text


def test_one_to_one_with_one_absent_dismisses_the_case(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    _record(hearing, officer, [Vote.DANGEROUS, Vote.NOT_UPHELD, Vote.ABSENT])
    hearing.refresh_from_db()
    case = hearing.case
    assert hearing.finding == HearingFinding.NOT_UPHELD
    assert case.status == CaseStatus.DISMISSED and case.closed_on == TODAY
    assert hearing.decision.outcome == DecisionOutcome.NOT_UPHELD
    assert case.appeal_deadline is None
    text = pdf_text(document_pdf(hearing.findings))
    assert "Not upheld" in text and "none of the requirements" in text


def test_a_potentially_dangerous_finding_states_the_dd30_gap(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    _record(
        hearing, officer, [Vote.POTENTIALLY_DANGEROUS, Vote.POTENTIALLY_DANGEROUS, Vote.NOT_UPHELD]
    )
    hearing.refresh_from_db()
    assert hearing.case.declared_designation == Designation.POTENTIALLY_DANGEROUS
    text = pdf_text(document_pdf(hearing.findings))
    assert "Potentially dangerous dog" in text
    assert "attaches no requirement to a potentially dangerous dog" in text


def test_reasons_and_every_vote_are_required(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    seat = hearing.seats.order_by("pk").first()
    with pytest.raises(Refused) as err:
        svc.hearing_record(
            hearing=hearing,
            record=svc.HearingRecord(held_on=TODAY, votes={seat.pk: Vote.DANGEROUS}, reasons="  "),
            actor=officer,
        )
    fields = _fields(err)
    assert "reasons" in fields and len([f for f in fields if f.startswith("vote_")]) == 2
    hearing.refresh_from_db()
    assert hearing.held_on is None and hearing.case.status == CaseStatus.HEARING


def test_the_hearing_date_is_not_before_its_schedule_nor_in_the_future(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY, on=TODAY - timedelta(days=1))
    votes = [Vote.DANGEROUS] * 3
    for held in (TODAY - timedelta(days=2), TODAY + timedelta(days=1)):
        with pytest.raises(Refused) as err:
            _record(hearing, officer, votes, held_on=held)
        assert "held_on" in _fields(err)


# --- Distribution (DD-08) and the owner's receipt (DD-10) -------------------------------


def _served(method=ServiceMethod.PERSONAL):
    return {k: {"method": method, "served_at": timezone.now()} for k in panel_svc.RECIPIENTS}


def test_the_findings_go_to_officer_police_and_owner_and_receipt_starts_compliance(
    glencoe, officer
):
    hearing = scheduled(glencoe, officer, today=TODAY)
    _record(hearing, officer, [Vote.DANGEROUS, Vote.DANGEROUS, Vote.POTENTIALLY_DANGEROUS])
    hearing.refresh_from_db()
    records = findings.findings_distribute(hearing=hearing, served=_served(), actor=officer)
    assert len(records) == 3
    assert ServiceRecord.objects.filter(document=hearing.findings).count() == 3
    case = DesignationCase.objects.get(pk=hearing.case_id)
    assert case.compliance_deadline is None
    findings.findings_received(hearing=hearing, received_on=TODAY, actor=officer)
    case.refresh_from_db()
    assert case.declaration_received_on == TODAY
    assert case.compliance_deadline == date(2026, 12, 15)
    with pytest.raises(Refused, match="recorded already"):
        findings.findings_received(hearing=hearing, received_on=TODAY, actor=officer)
    with pytest.raises(Refused, match="recorded already"):
        findings.findings_distribute(hearing=hearing, served=_served(), actor=officer)


def test_a_distribution_needs_each_copy(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    _record(hearing, officer, [Vote.DANGEROUS, Vote.DANGEROUS, Vote.DANGEROUS])
    hearing.refresh_from_db()
    served = _served()
    served["police"] = {}
    with pytest.raises(Refused) as err:
        findings.findings_distribute(hearing=hearing, served=served, actor=officer)
    assert _fields(err) == {"police_method", "police_served_at"}
    assert not ServiceRecord.objects.exists()


def test_the_whole_contested_path_runs_in_time(glencoe, officer, _fixed_clock):
    case = contested(glencoe, officer, today=TODAY)
    _review(case, officer, "refer")
    case.refresh_from_db()
    hearing = _schedule(case, officer)
    _fixed_clock.move_to(at(TODAY + timedelta(days=9), 20))
    _record(
        hearing,
        officer,
        [Vote.DANGEROUS, Vote.DANGEROUS, Vote.NOT_UPHELD],
        held_on=TODAY + timedelta(days=9),
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED
    assert case.appeal_deadline == TODAY + timedelta(days=23)
