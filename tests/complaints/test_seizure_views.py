"""The seizure pages: roles (403), cities (404), North Branch's plain statement, the
checklist refusing next to its fields while keeping what was entered, the contact log,
and the seized record with its notice (Glencoe 701 Subd. 5; RES-07, REC-05)."""

import pytest
from django.urls import reverse

from complaints.seizure_models import BarkingSeizure, ContactAttempt
from impound.models import ImpoundCase
from tests.complaints.seizure_helpers import earlier_and_now, failed_attempt, glencoe_pound
from tests.conftest import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-15T22:00")]

SIX = {
    "complainant_contemporaneous": "on",
    "barking_meets_criteria": "on",
    "contact_failed": "on",
    "no_forced_entry": "on",
    "entry_means": "no_residence",
    "no_less_intrusive": "on",
    "less_intrusive": "Knocked and phoned twice; nobody home.",
}


@pytest.fixture
def gl(glencoe, officer):
    _earlier, tonight = earlier_and_now(glencoe, officer)
    return tonight, glencoe_pound(glencoe)


def _urls(complaint):
    return (
        reverse("complaints:seizure", args=[complaint.pk]),
        reverse("complaints:seizure_contact", args=[complaint.pk]),
    )


def test_a_clerk_or_resident_gets_403(client, gl, glencoe_clerk, resident):
    page, contact = _urls(gl[0])
    for user in (glencoe_clerk, resident):
        client.force_login(user)
        assert client.get(page).status_code == 403
        assert client.post(page, SIX).status_code == 403
        assert client.post(contact, {}).status_code == 403


def test_an_officer_of_another_city_gets_404(client, gl, north_branch):
    client.force_login(make_user("nbo", "officer", [north_branch]))
    page, contact = _urls(gl[0])
    assert client.get(page).status_code == 404
    assert client.post(page, SIX).status_code == 404
    assert client.post(contact, {}).status_code == 404
    assert not ContactAttempt.objects.exists()


def test_north_branch_says_it_has_no_such_seizure_and_offers_nothing(client, north_branch, officer):
    _earlier, tonight = earlier_and_now(north_branch, officer)
    client.force_login(officer)
    detail = client.get(tonight.get_absolute_url()).content.decode()
    assert "ordinance has no seizure of a barking dog" in detail
    assert reverse("complaints:seizure", args=[tonight.pk]) not in detail
    page = client.get(_urls(tonight)[0]).content.decode()
    assert "ordinance has no seizure of a barking dog" in page
    assert "Seize the dog" not in page and "Log the attempt" not in page
    response = client.post(_urls(tonight)[0], {**SIX, "notice_place": "Door"})
    assert response.status_code == 400 and not ImpoundCase.objects.exists()


def test_the_checklist_refuses_six_keeps_them_and_accepts_seven(
    client, gl, officer, django_assert_max_num_queries
):
    tonight, pound = gl
    page, contact = _urls(tonight)
    client.force_login(officer)
    detail = client.get(tonight.get_absolute_url()).content.decode()
    assert page in detail and "Seizure checklist" in detail
    response = client.post(
        contact,
        {
            "contact-attempted_at": "2026-06-15T21:45",
            "contact-method": "door",
            "contact-contacted": "Owner, front door",
            "contact-result": "no_answer",
        },
    )
    assert response.status_code == 302 and ContactAttempt.objects.count() == 1
    with django_assert_max_num_queries(10):
        text = client.get(page).content.decode()
    assert "Shown by the complaint history." in text and "Owner, front door" in text

    response = client.post(page, {**SIX, "pound": pound.pk})
    assert response.status_code == 400
    form = response.context["form"]
    assert set(form.errors) == {"notice_place"}
    assert "Glencoe 701 Subd. 5 (Seizure of Barking Dog, cond. 7)" in form.errors["notice_place"][0]
    body = response.content.decode()
    assert "Knocked and phoned twice; nobody home." in body  # nothing entered is lost
    assert not BarkingSeizure.objects.exists()

    response = client.post(page, {**SIX, "pound": pound.pk, "notice_place": "Front door"})
    assert response.status_code == 302
    seizure = BarkingSeizure.objects.get()
    with django_assert_max_num_queries(10):
        text = client.get(page).content.decode()
    assert seizure.impound_case.number in text
    assert reverse("notices:document_pdf", args=[seizure.notice_id]) in text
    board = client.get(reverse("impound:board")).content.decode()
    assert seizure.impound_case.number in board


def test_the_page_says_when_the_history_shows_no_earlier_complaint(client, glencoe, officer):
    from tests.complaints.helpers import take_complaint
    from tests.complaints.seizure_helpers import NOW

    lone = take_complaint(glencoe, officer, when=NOW)
    failed_attempt(lone, officer)
    client.force_login(officer)
    text = client.get(_urls(lone)[0]).content.decode()
    assert "Not shown: the complaint history has no earlier barking complaint" in text


def test_the_systems_reading_of_the_barking_sits_beside_condition_two(
    client, gl, officer, django_assert_max_num_queries
):
    from datetime import timedelta

    from complaints.services import facts_record
    from tests.complaints.seizure_helpers import NOW

    tonight, _pound = gl
    client.force_login(officer)
    assert "no barking facts recorded" in client.get(_urls(tonight)[0]).content.decode()
    facts_record(
        complaint=tonight,
        actor=officer,
        topic="barking_facts",
        started_at=NOW - timedelta(minutes=40),
        ended_at=NOW - timedelta(minutes=20),
        pattern="continuous",
        audible_off_premises=True,
        now=NOW,
    )
    with django_assert_max_num_queries(10):
        text = client.get(_urls(tonight)[0]).content.decode()
    assert "The facts meet the ordinance&#x27;s test" in text
