"""The review and hearing page and the case page's sections 30 and 35 (DD-05..DD-08)."""

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from base.roles import RESIDENT
from dangerous_dogs.models import CaseStatus, DesignationCase, PanelHearing, Seat, Vote
from tests.conftest import make_user

from .hearing_helpers import contested, panel, scheduled
from .helpers import at

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


def _url(case):
    return reverse("dangerous_dogs:hearing", args=[case.pk])


def test_a_resident_and_a_clerk_get_403_another_city_404(
    client_as, glencoe, officer, glencoe_clerk, north_branch
):
    case = contested(glencoe, officer, today=TODAY)
    resident = make_user("rita", RESIDENT, [glencoe])
    for user in (resident, glencoe_clerk):
        assert client_as(user).get(_url(case)).status_code == 403
        assert client_as(user).post(_url(case), {"action": "review"}).status_code == 403
    nb_officer = make_user("nate", "officer", [north_branch])
    assert client_as(nb_officer).get(_url(case)).status_code == 404


def test_the_attorney_review_through_the_page(client_as, glencoe, officer):
    case = contested(glencoe, officer, today=TODAY)
    client = client_as(officer)
    page = client.get(case.get_absolute_url()).content.decode()
    assert "City Attorney review" in page and "Record the City Attorney" in page
    data = {
        "action": "review",
        "review-outcome": "refer",
        "review-decided_by_name": "Alex Attorney",
        "review-decided_on": "2026-12-02",
        "review-evidence": "Bite report",
        "review-reasons": "",
    }
    response = client.post(_url(case), data)
    assert response.status_code == 200
    assert "reasons" in response.context["forms"]["review"].errors
    assert 'value="Alex Attorney"' in response.content.decode()
    data["review-reasons"] = "Sufficient evidence."
    response = client.post(_url(case), data)  # the service refuses a future date
    assert response.status_code == 200
    assert "in the future" in str(response.context["forms"]["review"].errors["decided_on"])
    data["review-decided_on"] = "2026-12-01"
    response = client.post(_url(case), data)
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.status == CaseStatus.HEARING
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Alex Attorney" in page and "Glencoe 701 Subd. 15(C)" in page
    assert "Schedule the hearing" in page


def _schedule_data(**over):
    data = {
        "action": "schedule",
        "schedule-scheduled_for": "2026-12-10T18:00",
        "schedule-place": "Council Chambers",
        "seats-TOTAL_FORMS": "3",
        "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "3",
    }
    for i, (seat, name) in enumerate(
        [(Seat.COUNCIL, "Cora Council"), (Seat.COUNCIL, "Carl Council"), (Seat.ELECTOR, "Ellen")]
    ):
        data.update(
            {f"seats-{i}-seat": seat, f"seats-{i}-name": name, f"seats-{i}-impartial": "on"}
        )
    data.update(over)
    return data


def test_scheduling_through_the_page_puts_a_seat_error_next_to_its_row(client_as, glencoe, officer):
    case = contested(glencoe, officer, today=TODAY, status=CaseStatus.HEARING)
    client = client_as(officer)
    response = client.get(_url(case))
    assert response.status_code == 200 and len(response.context["forms"]["seats"].forms) == 3
    bad = _schedule_data(**{"seats-1-impartial": "", "schedule-scheduled_for": "2026-11-30T10:00"})
    response = client.post(_url(case), bad)
    assert response.status_code == 200
    seats = response.context["forms"]["seats"]
    assert "impartial" in seats.forms[1].errors
    assert "347.541" in str(seats.forms[1].errors["impartial"])
    assert "scheduled_for" in response.context["forms"]["schedule"].errors
    assert not PanelHearing.objects.exists()
    response = client.post(_url(case), _schedule_data())
    assert response.status_code == 302
    hearing = PanelHearing.objects.get()
    assert hearing.notice.kind == "dd_hearing_notice" and hearing.seats.count() == 3


def test_recording_the_hearing_through_the_page(client_as, glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    case = hearing.case
    seats = list(hearing.seats.order_by("pk"))
    client = client_as(officer)
    data = {
        "action": "record",
        "record-held_on": "2026-12-01",
        "record-reasons": "Bit without provocation.",
        "record-owner_appeared": "on",
        f"record-vote_{seats[0].pk}": Vote.DANGEROUS,
        f"record-vote_{seats[1].pk}": Vote.DANGEROUS,
        f"record-vote_{seats[2].pk}": "bogus",
    }
    response = client.post(_url(case), data)
    assert response.status_code == 200
    assert f"vote_{seats[2].pk}" in response.context["forms"]["record"].errors
    data[f"record-vote_{seats[2].pk}"] = Vote.NOT_UPHELD
    assert client.post(_url(case), data).status_code == 302
    case = DesignationCase.objects.get(pk=case.pk)
    assert case.status == CaseStatus.DECLARED
    page = client.get(case.get_absolute_url()).content.decode()
    assert "2 dangerous, 0 potentially dangerous, 1 not upheld" in page
    assert "not of those present" in page and "also supports the lesser finding" in page
    assert "Findings (PDF)" in page and "Appeal to the City Council" in page
    # the copies, then the owner's receipt
    copies = {"action": "distribute", "distribute-owner_received_on": ""}
    for key in ("officer", "police", "owner"):
        copies[f"distribute-{key}_method"] = "personal"
        copies[f"distribute-{key}_served_at"] = "2026-12-01T09:00"
    response = client.post(_url(case), copies)
    assert response.status_code == 200  # delivered before the findings were issued
    assert "officer_served_at" in response.context["forms"]["distribute"].errors
    for key in ("officer", "police", "owner"):
        copies[f"distribute-{key}_served_at"] = "2026-12-01T10:00"
    assert client.post(_url(case), copies).status_code == 302
    received = {"action": "received", "received-owner_received_on": "2026-12-01"}
    assert client.post(_url(case), received).status_code == 302
    case.refresh_from_db()
    assert case.compliance_deadline == date(2026, 12, 15)


def test_the_case_page_stays_within_its_query_budget_with_every_section(
    client_as,
    glencoe,
    officer,
    glencoe_clerk,
    django_assert_max_num_queries,
    case_page_queries,
    _fixed_clock,
):
    from dangerous_dogs.services import appeal as appeal_svc
    from dangerous_dogs.services import attorney, findings
    from dangerous_dogs.services import hearing as svc
    from dangerous_dogs.services import panel as panel_svc

    case = contested(glencoe, officer, today=TODAY)
    attorney.attorney_review(
        case=case,
        outcome="refer",
        decided_by_name="Alex Attorney",
        decided_on=TODAY,
        reasons="Enough to uphold.",
        evidence="Bite report",
        actor=officer,
    )
    hearing = svc.hearing_schedule(
        case=case, scheduled_for=at(TODAY, 18), place="Chambers", seats=panel(), actor=officer
    )
    _fixed_clock.move_to(at(TODAY + timedelta(days=1)))
    seats = list(hearing.seats.order_by("pk"))
    record = svc.HearingRecord(
        held_on=TODAY,
        witnesses="W",
        exhibits="E",
        owner_appeared=True,
        votes={s.pk: Vote.DANGEROUS for s in seats},
        reasons="R",
    )
    svc.hearing_record(hearing=hearing, record=record, actor=officer)
    hearing.refresh_from_db()
    served = {k: {"method": "personal", "served_at": timezone.now()} for k in panel_svc.RECIPIENTS}
    findings.findings_distribute(hearing=hearing, served=served, actor=officer)
    case = DesignationCase.objects.get(pk=hearing.case_id)
    appeal_svc.appeal_file(
        case=case, filed_on=TODAY + timedelta(days=1), grounds="G", actor=glencoe_clerk
    )
    client = client_as(officer)
    client.get(case.get_absolute_url())  # the menu's cached rule read is warm
    with django_assert_max_num_queries(case_page_queries):
        response = client.get(case.get_absolute_url())
    page = response.content.decode()
    assert "Cora Council" in page and "The ordinance does not say; a person decides" in page
    assert "Alex Attorney" in page and "Enough to uphold." in page
