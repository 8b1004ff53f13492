"""The officer's follow-up date: set, changed and cleared from the
complaint page with its history, and listed among the upcoming deadlines."""

from datetime import date

import pytest
from django.urls import reverse

from complaints.models import Complaint
from ordinance.deadlines import upcoming
from ordinance.models import Event
from tests.complaints.helpers import take_complaint

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-15T10:00")]


@pytest.fixture
def complaint(north_branch, clerk):
    return take_complaint(north_branch, clerk)


def _follow_ups(ids, today):
    return [d for d in upcoming(jurisdiction_ids=ids, today=today) if "Follow up" in d.what]


def test_the_officer_sets_changes_and_clears_the_date(client_as, officer, complaint):
    client = client_as(officer)
    page = client.get(reverse("complaints:detail", args=[complaint.pk])).content.decode()
    url = reverse("complaints:follow_up", args=[complaint.pk])
    assert url in page
    assert client.post(url, {"follow_up_on": "2026-06-18"}).status_code == 302
    assert client.post(url, {"follow_up_on": "2026-06-22"}).status_code == 302
    complaint.refresh_from_db()
    assert complaint.follow_up_on == date(2026, 6, 22)
    assert client.post(url, {"follow_up_on": ""}).status_code == 302
    complaint.refresh_from_db()
    assert complaint.follow_up_on is None
    # Who changed it, from what to what: the history and the events.
    versions = [h.follow_up_on for h in complaint.history.order_by("history_date", "history_id")]
    assert versions[-3:] == [date(2026, 6, 18), date(2026, 6, 22), None]
    events = Event.objects.for_object(complaint).filter(action="complaints.complaint.follow_up_set")
    assert [e.data["after"] for e in events.order_by("at", "pk")] == [
        "2026-06-18",
        "2026-06-22",
        None,
    ]
    assert {e.actor_id for e in events} == {officer.pk}


def test_a_past_date_is_refused_next_to_its_field(client_as, officer, complaint):
    url = reverse("complaints:follow_up", args=[complaint.pk])
    response = client_as(officer).post(url, {"follow_up_on": "2026-06-14"})
    assert response.status_code == 400
    assert "Choose today or a later date." in response.content.decode()
    assert Complaint.objects.get(pk=complaint.pk).follow_up_on is None


def test_the_date_is_among_the_upcoming_deadlines(client_as, officer, complaint, north_branch):
    client_as(officer).post(
        reverse("complaints:follow_up", args=[complaint.pk]), {"follow_up_on": "2026-06-18"}
    )
    found = _follow_ups([north_branch.pk], date(2026, 6, 15))
    assert [(d.due, d.url) for d in found] == [
        (date(2026, 6, 18), reverse("complaints:detail", args=[complaint.pk]))
    ]
    assert _follow_ups([north_branch.pk], date(2026, 6, 19)) == []  # passed
    assert _follow_ups([north_branch.pk], date(2026, 6, 1)) == []  # beyond the horizon


def test_another_city_does_not_list_it(officer, complaint, glencoe, client_as):
    client_as(officer).post(
        reverse("complaints:follow_up", args=[complaint.pk]), {"follow_up_on": "2026-06-18"}
    )
    assert _follow_ups([glencoe.pk], date(2026, 6, 15)) == []


def test_only_the_officer_or_administrator_sets_it(
    client_as, clerk, resident, glencoe_clerk, complaint
):
    url = reverse("complaints:follow_up", args=[complaint.pk])
    assert client_as(clerk).get(url).status_code == 403
    assert client_as(resident).get(url).status_code == 403
    assert client_as(glencoe_clerk).get(url).status_code == 403
    page = client_as(clerk).get(reverse("complaints:detail", args=[complaint.pk])).content
    assert url not in page.decode()


def test_an_officer_of_another_city_gets_404(glencoe, complaint, client_as):
    from base.roles import OFFICER
    from tests.conftest import make_user

    gl_officer = make_user("gus", OFFICER, [glencoe])
    url = reverse("complaints:follow_up", args=[complaint.pk])
    assert client_as(gl_officer).get(url).status_code == 404
