"""Review of the designation, charges and repeat offences, summary destruction (DD-22,
DD-24, DD-25, DD-28; MN-06; C35, C38; Appendix D G19)."""

from datetime import date

import pytest

from dangerous_dogs.models import CaseStatus, ChargeOutcome
from dangerous_dogs.services.charges import charge_decide, charge_record, court_order_record
from dangerous_dogs.services.destruction import (
    DestructionHearing,
    summary_destruction_done,
    summary_destruction_record,
)
from dangerous_dogs.services.review import review_decide, review_request
from notices.models import Decision, DecisionOutcome
from ordinance.refusals import Refused
from tests.impound.helpers import owned_dog

from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2027-12-01T10:00")]


def _request(case, officer, on):
    return review_request(
        case=case,
        requested_on=on,
        reasons=["training"],
        evidence="Completed a course",
        actor=officer,
    )


def _decide(item, officer, outcome, on):
    return review_decide(
        request=item,
        outcome=outcome,
        decided_by_name="Olivia Officer",
        capacity="Animal control officer",
        decided_on=on,
        reasons="Evidence weighed",
        actor=officer,
    )


def test_a_review_is_refused_before_six_months_naming_the_date_and_section(glencoe, officer):
    case = declared(glencoe, officer, on=date(2027, 3, 15))
    with pytest.raises(Refused) as err:
        _request(case, officer, date(2027, 9, 14))
    check = err.value.reasons[0]
    assert check.field == "requested_on" and "Sep 15, 2027" in check.message
    assert check.citation == "Glencoe 701 Subd. 15(F)"
    assert _request(case, officer, date(2027, 9, 15)).pk


def test_a_second_review_waits_a_year_after_the_last_request(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    first = _request(case, officer, date(2027, 1, 5))
    with pytest.raises(Refused, match="not decided yet"):
        _request(case, officer, date(2027, 2, 1))
    _decide(first, officer, "uphold", date(2027, 1, 20))
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED
    with pytest.raises(Refused) as err:
        _request(case, officer, date(2027, 11, 30))
    assert "Jan 5, 2028" in err.value.reasons[0].message


def test_a_review_needs_a_reason_and_evidence_and_is_for_a_dangerous_dog_only(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    with pytest.raises(Refused) as err:
        review_request(
            case=case, requested_on=date(2027, 1, 5), reasons=[], evidence="x", actor=officer
        )
    assert err.value.reasons[0].field == "reasons"
    pdd = declared(glencoe, officer, on=date(2026, 1, 10), designation="potentially")
    with pytest.raises(Refused, match="dangerous designation in force"):
        _request(pdd, officer, date(2027, 1, 5))


def test_rescinding_closes_the_case_with_a_decision(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    decision = _decide(
        _request(case, officer, date(2027, 1, 5)), officer, "rescind", date(2027, 2, 1)
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.RESCINDED and case.closed_on == date(2027, 2, 1)
    assert decision.kind == "dd_review" and decision.outcome == DecisionOutcome.NOT_UPHELD
    assert decision.subject == case


# --- Charges ------------------------------------------------------------------------------


def _convicted(case, officer):
    charge = charge_record(
        case=case, charged_on=date(2027, 2, 1), offence="Dog outside its enclosure", actor=officer
    )
    return charge_decide(
        charge=charge,
        outcome=ChargeOutcome.CONVICTED,
        decided_on=date(2027, 4, 1),
        court="McLeod County District Court",
        actor=officer,
    )


def test_a_repeat_offence_is_flagged_to_a_person_while_the_sections_are_blank(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    _convicted(case, officer)
    case.refresh_from_db()
    assert case.attention == ""
    charge_record(case=case, charged_on=date(2027, 6, 1), offence="Not muzzled", actor=officer)
    case.refresh_from_db()
    assert case.attention == (
        "A repeat offence: Glencoe 701 Subd. 15(K)(4) requires seizure, but its sections are "
        "blank; a person decides."
    )
    assert case.attention_citation == "Glencoe 701 Subd. 15(K)(4)"
    assert case.seizure_due_on is None


def test_with_the_sections_set_seizure_is_required(glencoe, officer, administrator):
    from ordinance.amendments import rule_amend

    rule_amend(
        jurisdiction=glencoe,
        key="gl_dd_subsequent_offence_sections",
        value="Minn. Stat. 347.51, 347.515, 347.52",
        effective_from=date(2026, 1, 1),
        ordinance_ref="Council resolution 2026-1",
        actor=administrator,
    )
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    _convicted(case, officer)
    charge_record(case=case, charged_on=date(2027, 6, 1), offence="Not muzzled", actor=officer)
    case.refresh_from_db()
    assert case.attention.startswith("Seizure required (Glencoe 701 Subd. 15(K)(4))")
    assert case.seizure_due_on == date(2027, 12, 1)


def test_a_conviction_allows_a_court_order_of_destruction(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    charge = charge_record(case=case, charged_on=date(2027, 2, 1), offence="Attack", actor=officer)
    with pytest.raises(Refused, match="pending"):
        court_order_record(
            charge=charge,
            ordered_on=date(2027, 4, 1),
            court="Court",
            terms="Destroy",
            actor=officer,
        )
    charge = charge_decide(
        charge=charge,
        outcome=ChargeOutcome.CONVICTED,
        decided_on=date(2027, 4, 1),
        court="McLeod County District Court",
        actor=officer,
    )
    order = court_order_record(
        charge=charge,
        ordered_on=date(2027, 4, 1),
        court="McLeod County District Court",
        terms="Confiscate and destroy the dog; the owner pays the costs",
        actor=officer,
    )
    assert order.kind == "dd_court_order" and order.outcome == DecisionOutcome.ORDERED
    assert order.citation == "Glencoe 701 Subd. 15(K)(2)" and order.subject == case
    with pytest.raises(Refused, match="recorded"):
        court_order_record(
            charge=charge, ordered_on=date(2027, 4, 2), court="C", terms="T", actor=officer
        )


# --- Summary destruction ------------------------------------------------------------------


def _destruction(animal, officer, case=None, **over):
    values = dict(
        ground="vicious",
        facts="Unprovoked attack causing great bodily harm",
        hearing_notice_on=date(2027, 11, 20),
        hearing_on=date(2027, 11, 25),
        decision_maker="Hearing officer J. Impartial",
        outcome="destroy",
        decided_on=date(2027, 11, 26),
        reasons="Clear and immediate danger",
        officer_name="Olivia Officer",
    )
    values.update(over)
    return summary_destruction_record(
        animal=animal, case=case, hearing=DestructionHearing(**values), actor=officer
    )


def test_summary_destruction_is_refused_without_the_hearing_opportunity(glencoe, officer):
    animal = owned_dog(glencoe)
    with pytest.raises(Refused) as err:
        _destruction(animal, officer, hearing_notice_on=None, hearing_on=None, decision_maker="")
    assert {c.field for c in err.value.reasons} == {
        "hearing_notice_on",
        "hearing_on",
        "decision_maker",
    }
    assert err.value.reasons[0].citation == "Glencoe 701 Subd. 17"
    spared = _destruction(animal, officer, outcome="spare")
    with pytest.raises(Refused, match="No decision to destroy"):
        summary_destruction_done(record=spared, destroyed_on=date(2027, 11, 30), actor=officer)


def test_destroyed_after_the_decision_closes_the_case(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 1, 10))
    record = _destruction(case.animal, officer, case=case)
    assert Decision.objects.get(pk=record.decision_id).outcome == DecisionOutcome.ORDERED
    with pytest.raises(Refused) as err:
        summary_destruction_done(record=record, destroyed_on=date(2027, 11, 25), actor=officer)
    assert err.value.reasons[0].field == "destroyed_on"
    summary_destruction_done(record=record, destroyed_on=date(2027, 11, 28), actor=officer)
    case.refresh_from_db()
    assert case.status == CaseStatus.DESTROYED and case.closed_on == date(2027, 11, 28)


def test_north_branch_has_no_summary_destruction(north_branch, officer):
    with pytest.raises(Refused) as err:
        _destruction(owned_dog(north_branch), officer)
    assert "no procedure to declare a dog dangerous" in str(err.value)
    assert err.value.reasons[0].citation == "North Branch Sec. 6-73, 6-75"
