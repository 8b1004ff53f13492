"""The notice stage's services: investigation, notice of intent, service and receipt,
contest, late contest, default, declaration (DD-02, DD-03, DD-04, DD-09, DD-26, DD-27,
DD-29, DD-30; C24, C25, C29)."""

from datetime import date, timedelta

import pytest

from dangerous_dogs.models import CaseStatus, Criterion, DeclaredBy, Designation
from dangerous_dogs.services import cases as svc
from dangerous_dogs.services import contest
from dangerous_dogs.services.investigation import prior_pdd_notice
from kernel.models import NumberSeries
from notices.models import Decision, ServiceRecord
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.impound.helpers import owned_dog
from tests.pdf import pdf_text

from .helpers import at, make_case

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-02T10:00")]
TODAY = date(2026, 11, 2)


def investigation(**over):
    values = {
        "incident_kind": "bite_human",
        "occurred_at": at(date(2026, 10, 30), 17, 30),
        "location": "Greeley Ave and 11th St",
        "off_owner_property": True,
        "victim": "Dana Reyes, a passer-by",
        "injuries": "Puncture wounds needing stitches",
        "criterion": Criterion.SUBSTANTIAL_HARM,
        "designation": Designation.DANGEROUS,
        "exemption_findings": "On the public sidewalk; no provocation; no crime.",
        "investigated_by_name": "Olivia Officer",
        "investigated_on": date(2026, 11, 1),
    }
    values.update(over)
    return values


def open_case(glencoe, officer, animal=None, **over):
    animal = animal or owned_dog(glencoe, name="Rex")
    return svc.case_open(animal=animal, actor=officer, **investigation(**over))


def refused(fn, **kw):
    with pytest.raises(Refused) as err:
        fn(**kw)
    return err.value


# --- Investigation --------------------------------------------------------------------


def test_an_investigation_opens_a_determined_case_with_an_event(glencoe, officer):
    case = open_case(glencoe, officer)
    assert case.status == CaseStatus.DETERMINED and case.number == "DD-2026-0001"
    assert case.owner == case.animal.owner and case.prior_notice_on is None
    event = Event.objects.get(action="dangerous_dogs.case.opened")
    assert "Glencoe 701 Subd. 1" in event.summary
    # The city's series of the year, in the kernel's one number table.
    series = NumberSeries.objects.get(jurisdiction=glencoe, series="dangerous-dog", year=2026)
    assert series.next_number == 2 and open_case(glencoe, officer).number == "DD-2026-0002"


def test_north_branch_has_no_procedure(north_branch, officer):
    err = refused(svc.case_open, animal=owned_dog(north_branch), actor=officer, **investigation())
    assert "no procedure" in str(err) and "Sec. 6-73" in str(err)


def test_a_law_enforcement_dog_is_exempt(glencoe, officer):
    dog = owned_dog(glencoe, is_law_enforcement=True)
    err = refused(svc.case_open, animal=dog, actor=officer, **investigation())
    assert "Glencoe 701 Subd. 15(M)" in err.sections


def test_an_officer_of_another_city_is_refused(glencoe, north_branch):
    from tests.conftest import make_user

    nb_officer = make_user("nate", "officer", [north_branch])
    err = refused(svc.case_open, animal=owned_dog(glencoe), actor=nb_officer, **investigation())
    assert "do not serve" in str(err)


def test_the_designation_must_agree_with_the_criterion(glencoe, officer):
    err = refused(
        svc.case_open,
        animal=owned_dog(glencoe),
        actor=officer,
        **investigation(criterion=Criterion.CHASED, designation=Designation.DANGEROUS),
    )
    assert err.reasons[0].field == "designation"
    assert "potentially dangerous dog" in str(err)


@pytest.mark.parametrize(
    ("over", "field"),
    [
        ({"exemption_findings": "  "}, "exemption_findings"),
        ({"investigated_on": date(2026, 11, 3)}, "investigated_on"),
        ({"investigated_on": date(2026, 10, 29)}, "investigated_on"),
        ({"occurred_at": at(date(2026, 11, 3))}, "occurred_at"),
    ],
)
def test_bad_investigation_input_is_refused_at_its_field(glencoe, officer, over, field):
    err = refused(svc.case_open, animal=owned_dog(glencoe), actor=officer, **investigation(**over))
    assert err.reasons[0].field == field


def test_an_exemption_closes_the_case_and_no_notice_can_follow(glencoe, officer):
    case = open_case(glencoe, officer, exempt_provocation=True)
    assert case.status == CaseStatus.EXEMPT and case.closed_on == TODAY
    assert "Glencoe 701 Subd. 15(L)" in case.closing_note
    assert "provoked" in case.closing_note
    assert Event.objects.filter(action="dangerous_dogs.case.exempt").count() == 1
    err = refused(svc.notice_issue, case=case, actor=officer)
    assert "No notice of intent can be issued" in str(err)
    assert "Glencoe 701 Subd. 15(L)" in err.sections


def test_prong_three_needs_an_earlier_pdd_notice(glencoe, officer):
    dog = owned_dog(glencoe, name="Rex")
    err = refused(
        svc.case_open,
        animal=dog,
        actor=officer,
        **investigation(criterion=Criterion.AFTER_PDD_NOTICE),
    )
    assert err.reasons[0].field == "criterion" and "prong (3)" in str(err)


def test_prong_three_is_allowed_only_after_the_notice(glencoe, officer):
    dog = owned_dog(glencoe, name="Rex")
    make_case(
        glencoe,
        officer,
        animal=dog,
        status=CaseStatus.DECLARED,
        designation=Designation.POTENTIALLY_DANGEROUS,
        criterion=Criterion.CHASED,
        notice_received_on=date(2026, 6, 1),
        declared_designation=Designation.POTENTIALLY_DANGEROUS,
        declared_on=date(2026, 6, 20),
    )
    assert prior_pdd_notice(dog) == date(2026, 6, 1)
    err = refused(
        svc.case_open,
        animal=dog,
        actor=officer,
        **investigation(
            criterion=Criterion.AFTER_PDD_NOTICE,
            occurred_at=at(date(2026, 5, 30)),
            investigated_on=date(2026, 6, 2),
        ),
    )
    assert "after the owner was sent notice" in str(err)
    case = open_case(glencoe, officer, animal=dog, criterion=Criterion.AFTER_PDD_NOTICE)
    assert case.prior_notice_on == date(2026, 6, 1)


def test_a_withdrawn_pdd_case_is_no_notice(glencoe, officer):
    dog = owned_dog(glencoe)
    make_case(
        glencoe,
        officer,
        animal=dog,
        status=CaseStatus.WITHDRAWN,
        designation=Designation.POTENTIALLY_DANGEROUS,
        criterion=Criterion.CHASED,
        notice_received_on=date(2026, 6, 1),
    )
    assert prior_pdd_notice(dog) is None


# --- Notice of intent, service, receipt -----------------------------------------------


def issued(glencoe, officer, **over):
    case = open_case(glencoe, officer, **over)
    svc.notice_issue(case=case, actor=officer, now=at(TODAY, 8))
    return case


def test_the_notice_of_intent_is_issued_with_its_four_items(glencoe, officer):
    case = issued(glencoe, officer)
    assert case.status == CaseStatus.NOTICE_ISSUED and case.notice.kind == "dd_notice_of_intent"
    assert case.contest_deadline is None
    text = pdf_text(document_pdf(case.notice))
    assert "Rex" in text and "dangerous dog" in text
    assert "Without provocation, inflicted substantial bodily harm" in text
    assert "within 14 days of the day you receive this notice" in text
    assert "Glencoe 701 Subd. 15(B), (J)" in text and "Glencoe 701 Subd. 15(J)" in text
    assert "forfeit the right to a hearing" in text
    assert "certified mail" in text.lower()
    with pytest.raises(Refused, match="notice of intent is not possible"):
        svc.notice_issue(case=case, actor=officer)


def test_an_attempt_without_receipt_starts_nothing(glencoe, officer):
    case = issued(glencoe, officer)
    record = svc.notice_served(case=case, actor=officer, method="personal", served_at=at(TODAY, 9))
    assert record.received_on is None and not record.succeeded
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_ISSUED and case.contest_deadline is None
    assert Event.objects.filter(action="dangerous_dogs.case.notice_service").count() == 1


def test_the_first_receipt_starts_the_contest_period(glencoe, officer):
    case = issued(glencoe, officer)
    svc.notice_served(
        case=case,
        actor=officer,
        method="personal",
        served_at=at(TODAY, 9, 30),
        received_on=TODAY,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_SERVED
    assert case.notice_received_on == TODAY
    assert case.contest_deadline == date(2026, 11, 16)
    assert case.contest_citation == "Glencoe 701 Subd. 15(B), (J)"
    assert ServiceRecord.objects.filter(received_on=TODAY).count() == 1
    err = refused(
        svc.notice_served,
        case=case,
        actor=officer,
        method="mail",
        served_at=at(TODAY, 9, 40),
        received_on=TODAY,
    )
    assert err.reasons[0].field == "received_on"


def test_service_refuses_a_method_the_city_does_not_use_and_bad_dates(glencoe, officer):
    case = issued(glencoe, officer)
    err = refused(
        svc.notice_served, case=case, actor=officer, method="phone", served_at=at(TODAY, 9)
    )
    assert err.reasons[0].field == "method" and "Glencoe 701 Subd. 15(A)" in err.sections
    err = refused(
        svc.notice_served, case=case, actor=officer, method="posted", served_at=at(TODAY, 9)
    )
    assert err.reasons[0].field == "posted_where"
    err = refused(
        svc.notice_served, case=case, actor=officer, method="mail", served_at=at(TODAY, 11)
    )
    assert err.reasons[0].field == "served_at"
    err = refused(
        svc.notice_served,
        case=case,
        actor=officer,
        method="mail",
        served_at=at(TODAY, 9),
        received_on=TODAY + timedelta(days=1),
    )
    assert err.reasons[0].field == "received_on"


def test_service_before_the_notice_is_issued_is_refused(glencoe, officer):
    case = open_case(glencoe, officer)
    with pytest.raises(Refused, match="recording service is not possible"):
        svc.notice_served(case=case, actor=officer, method="mail", served_at=at(TODAY, 9))


# --- Contest ----------------------------------------------------------------------------


def served(glencoe, officer, received_on=date(2026, 10, 20)):
    """Received October 20: contest by November 3."""
    case = make_case(
        glencoe,
        officer,
        status=CaseStatus.NOTICE_SERVED,
        notice_received_on=received_on,
        contest_deadline=received_on + timedelta(days=14),
        contest_citation="Glencoe 701 Subd. 15(B), (J)",
    )
    return case


def test_a_written_request_in_time_contests_the_case(glencoe, officer):
    case = served(glencoe, officer)
    contest.contest_received(case=case, received_on=TODAY, delivered_to="police", actor=officer)
    assert case.status == CaseStatus.CONTESTED
    assert case.contest_received_by == "The police department" and not case.contest_late
    assert Event.objects.filter(action="dangerous_dogs.case.contested").count() == 1


def test_a_request_must_be_in_writing_to_the_officer_or_police(glencoe, officer):
    case = served(glencoe, officer)
    err = refused(
        contest.contest_received,
        case=case,
        received_on=TODAY,
        delivered_to="officer",
        in_writing=False,
        actor=officer,
    )
    assert err.reasons[0].field == "in_writing"
    err = refused(
        contest.contest_received, case=case, received_on=TODAY, delivered_to="mayor", actor=officer
    )
    assert err.reasons[0].field == "delivered_to"
    err = refused(
        contest.contest_received,
        case=case,
        received_on=date(2026, 10, 19),
        delivered_to="officer",
        actor=officer,
    )
    assert err.reasons[0].field == "received_on"


def test_a_request_before_the_receipt_is_recorded_is_refused(glencoe, officer):
    case = make_case(glencoe, officer, status=CaseStatus.NOTICE_ISSUED)
    with pytest.raises(Refused, match="receipt of the notice of intent first"):
        contest.contest_received(
            case=case, received_on=TODAY, delivered_to="officer", actor=officer
        )


def test_a_late_request_goes_to_a_person_who_accepts_it(glencoe, officer):
    case = served(glencoe, officer, received_on=date(2026, 10, 15))  # due October 29
    contest.contest_received(case=case, received_on=TODAY, delivered_to="officer", actor=officer)
    assert case.status == CaseStatus.NOTICE_SERVED and case.contest_late
    assert case.attention.startswith("A late request for a hearing: a person decides")
    assert case.attention_citation == "Glencoe 701 Subd. 15(B), (J)"
    assert contest.late_contest_pending(case)
    err = refused(
        contest.late_contest_decide,
        case=case,
        accept=True,
        decided_by_name="",
        capacity="Animal control officer",
        reasons="Hospitalized",
        actor=officer,
    )
    assert err.reasons[0].field == "decided_by_name"
    decision = contest.late_contest_decide(
        case=case,
        accept=True,
        decided_by_name="Olivia Officer",
        capacity="Animal control officer",
        reasons="The owner was in hospital for the whole period.",
        actor=officer,
    )
    assert decision.outcome == "approved" and decision.kind == "dd_late_contest"
    assert case.status == CaseStatus.CONTESTED and case.attention == ""
    assert not contest.late_contest_pending(case)


def test_a_refused_late_request_leaves_the_case_and_clears_the_flag(glencoe, officer):
    case = served(glencoe, officer, received_on=date(2026, 10, 15))
    contest.contest_received(case=case, received_on=TODAY, delivered_to="officer", actor=officer)
    contest.late_contest_decide(
        case=case,
        accept=False,
        decided_by_name="Olivia Officer",
        capacity="Animal control officer",
        reasons="No reason given for the delay.",
        actor=officer,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_SERVED and case.attention == ""
    assert Decision.objects.get().outcome == "denied"
    assert Event.objects.filter(action="dangerous_dogs.case.late_contest_refused").count() == 1
    with pytest.raises(Refused, match="No late request"):
        contest.late_contest_decide(
            case=case,
            accept=True,
            decided_by_name="X",
            capacity="Y",
            reasons="Z",
            actor=officer,
        )


# --- Declaration ------------------------------------------------------------------------


def defaulted(glencoe, officer, **fields):
    values = {
        "status": CaseStatus.DEFAULTED,
        "notice_received_on": date(2026, 10, 1),
        "contest_deadline": date(2026, 10, 15),
        "contest_citation": "Glencoe 701 Subd. 15(B), (J)",
        "defaulted_on": date(2026, 10, 16),
    }
    values.update(fields)
    return make_case(glencoe, officer, **values)


def test_the_declaration_of_a_dangerous_dog_names_the_requirements(glencoe, officer):
    case = defaulted(glencoe, officer, animal=owned_dog(glencoe, name="Brutus"))
    document = svc.declaration_issue(case=case, actor=officer)
    assert case.status == CaseStatus.DECLARED and case.declared_by == DeclaredBy.DEFAULT
    assert case.declaration == document and case.declared_on == TODAY
    assert case.appeal_deadline is None
    text = pdf_text(document_pdf(document))
    assert "Brutus" in text and "Glencoe 701 Subd. 15(J)" in text
    assert "within 14 days of receiving" in text
    assert "$300,000.00" in text and "Minn. Stat. 347.51 subd. 2" in text
    assert "supersedes" in text  # Glencoe's "$50" is weaker than the statute
    assert "Minn. Stat. 347.515" in text and "$500.00" in text
    event = Event.objects.get(action="dangerous_dogs.case.declared")
    assert "By default" in event.summary


def test_the_declaration_of_a_pdd_says_the_ordinance_sets_no_requirements(glencoe, officer):
    case = defaulted(
        glencoe,
        officer,
        designation=Designation.POTENTIALLY_DANGEROUS,
        criterion=Criterion.CHASED,
    )
    document = svc.declaration_issue(case=case, actor=officer)
    text = pdf_text(document_pdf(document))
    assert "The ordinance sets no requirements for a potentially dangerous dog" in text
    assert "Glencoe 701 Subd. 15" in text and "$300,000" not in text
    assert case.declared_designation == Designation.POTENTIALLY_DANGEROUS


def test_no_declaration_before_default_or_while_a_late_request_waits(glencoe, officer):
    case = served(glencoe, officer)
    with pytest.raises(Refused, match="issuing the declaration is not possible"):
        svc.declaration_issue(case=case, actor=officer)
    late = defaulted(glencoe, officer, contest_late=True, contest_received_on=TODAY)
    with pytest.raises(Refused, match="late request"):
        svc.declaration_issue(case=late, actor=officer)


def test_the_full_default_path_through_the_services(glencoe, officer):
    from dangerous_dogs.sweeps import sweep_contest_default

    case = issued(glencoe, officer)
    svc.notice_served(
        case=case, actor=officer, method="certified", served_at=at(TODAY, 9), received_on=TODAY
    )
    sweep_contest_default(now=at(date(2026, 11, 17), 0, 5))
    case.refresh_from_db()
    assert case.status == CaseStatus.DEFAULTED and case.defaulted_on == date(2026, 11, 17)
    svc.declaration_issue(case=case, actor=officer, now=at(date(2026, 11, 17), 10))
    assert case.status == CaseStatus.DECLARED
