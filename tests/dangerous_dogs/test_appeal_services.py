"""The appeal to the City Council, filed with the City Clerk, then the Court of Appeals
(DD-20, C31; Glencoe 701 Subd. 15(H))."""

from datetime import date, timedelta

import pytest

from dangerous_dogs.models import Appeal, CaseStatus, DesignationCase, Vote
from dangerous_dogs.services import appeal as svc
from dangerous_dogs.services import hearing as hearing_svc
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused

from .hearing_helpers import scheduled
from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)
RULED = date(2026, 11, 20)


def _panel_declared(glencoe, officer):
    """A case the panel found dangerous 2-1 on RULED (appeal by Dec 4)."""
    hearing = scheduled(glencoe, officer, today=TODAY, on=RULED)
    seats = list(hearing.seats.order_by("pk"))
    votes = dict(
        zip([s.pk for s in seats], [Vote.DANGEROUS, Vote.DANGEROUS, Vote.NOT_UPHELD], strict=True)
    )
    record = hearing_svc.HearingRecord(
        held_on=RULED,
        owner_appeared=True,
        votes=votes,
        reasons="Substantial bodily harm without provocation.",
    )
    hearing_svc.hearing_record(hearing=hearing, record=record, actor=officer)
    return DesignationCase.objects.get(pk=hearing.case_id)


def test_an_appeal_in_time_is_recorded_with_the_stored_deadline(glencoe, officer, glencoe_clerk):
    case = _panel_declared(glencoe, officer)
    assert case.appeal_deadline == date(2026, 12, 4)
    appeal = svc.appeal_file(
        case=case, filed_on=TODAY, grounds="The victim provoked the dog.", actor=glencoe_clerk
    )
    assert appeal.deadline == date(2026, 12, 4) and not appeal.late and appeal.pending
    case.refresh_from_db()
    assert case.attention == ""
    assert Event.objects.filter(action="dangerous_dogs.appeal.filed").count() == 1


def test_a_late_appeal_is_recorded_late_and_put_before_a_person(
    glencoe, officer, glencoe_clerk, _fixed_clock
):
    case = _panel_declared(glencoe, officer)
    _fixed_clock.move_to("2026-12-07T10:00")
    appeal = svc.appeal_file(
        case=case, filed_on=date(2026, 12, 7), grounds="Late grounds", actor=glencoe_clerk
    )
    assert appeal.late
    case.refresh_from_db()
    assert "late" in case.attention and case.attention_citation == "Glencoe 701 Subd. 15(H)"


def test_a_declaration_by_default_has_no_council_appeal(glencoe, officer, glencoe_clerk):
    case = declared(glencoe, officer, on=RULED)
    with pytest.raises(Refused) as err:
        svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)
    assert "by default" in str(err.value) and "Glencoe 701 Subd. 15(H)" in str(err.value)
    assert not Appeal.objects.exists()


def test_an_officer_does_not_record_an_appeal_and_grounds_are_required(
    glencoe, officer, glencoe_clerk
):
    case = _panel_declared(glencoe, officer)
    with pytest.raises(Refused, match="City Clerk"):
        svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=officer)
    with pytest.raises(Refused) as err:
        svc.appeal_file(
            case=case, filed_on=TODAY + timedelta(days=1), grounds=" ", actor=glencoe_clerk
        )
    assert {c.field for c in err.value.checks} == {"grounds", "filed_on"}
    svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)
    with pytest.raises(Refused, match="recorded already"):
        svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)


def test_the_council_upholds_and_the_case_stays_declared_then_court_of_appeals(
    glencoe, officer, glencoe_clerk
):
    case = _panel_declared(glencoe, officer)
    appeal = svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)
    decision = svc.appeal_decide(
        appeal=appeal,
        outcome="upheld",
        decided_on=TODAY,
        reasons="The panel weighed the evidence fairly.",
        actor=glencoe_clerk,
    )
    assert decision.kind == "dd_council_appeal" and decision.outcome == DecisionOutcome.UPHELD
    assert decision.decided_by_name == "City Council"
    panel = Decision.objects.get(kind="dd_panel_finding")
    assert decision.reviews == panel
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED
    with pytest.raises(Refused, match="recorded already"):
        svc.appeal_decide(
            appeal=appeal, outcome="reversed", decided_on=TODAY, reasons="x", actor=glencoe_clerk
        )
    svc.court_of_appeals(appeal=appeal, on=TODAY, actor=glencoe_clerk)
    appeal.refresh_from_db()
    assert appeal.court_of_appeals_on == TODAY


def test_a_reversal_dismisses_the_case(glencoe, officer, glencoe_clerk):
    case = _panel_declared(glencoe, officer)
    appeal = svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)
    with pytest.raises(Refused) as err:
        svc.appeal_decide(
            appeal=appeal, outcome="reversed", decided_on=TODAY, reasons="", actor=glencoe_clerk
        )
    assert {c.field for c in err.value.checks} == {"reasons"}
    svc.appeal_decide(
        appeal=appeal,
        outcome="reversed",
        decided_on=TODAY,
        reasons="Provoked.",
        actor=glencoe_clerk,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.DISMISSED and case.closed_on == TODAY


def test_the_court_of_appeals_needs_a_council_decision(glencoe, officer, glencoe_clerk):
    case = _panel_declared(glencoe, officer)
    appeal = svc.appeal_file(case=case, filed_on=TODAY, grounds="x", actor=glencoe_clerk)
    with pytest.raises(Refused, match="not decided"):
        svc.court_of_appeals(appeal=appeal, on=TODAY, actor=glencoe_clerk)


def test_whether_a_pending_appeal_stays_compliance_is_for_a_person_in_glencoe(glencoe):
    stay = svc.stay_statement(glencoe, on=TODAY)
    assert stay["text"] == "The ordinance does not say; a person decides."
    assert stay["citation"] == "Glencoe 701 Subd. 15(H)" and not stay["decided"]
