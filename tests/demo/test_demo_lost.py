"""demo_data's lost-pet reports: the demo resident's black Labrador lost in
Glencoe matches the pound's Glencoe stray, so the officer's list shows the match; the
North Branch cat matches nothing; both open for the profile's days; made once."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from demo.impound import fill_demo_impound
from demo.jurisdictions import ensure_demo_jurisdictions
from demo.lost import fill_demo_lost
from demo.users import ensure_demo_users
from impound.models import LostMatch, LostReport, LostStatus
from ordinance.rules import rule_in_force


@pytest.mark.django_db
@pytest.mark.clock("2026-11-24T10:00")
def test_the_demo_resident_has_one_matched_and_one_open_report_once(client_as):
    cities = ensure_demo_jurisdictions()
    users = {u.username: u for u in ensure_demo_users({j.slug: j for j in cities})}
    now = timezone.now()
    fill_demo_impound(cities, users=users, now=now)
    assert fill_demo_lost(cities, users=users, now=now) == {"glencoe": 1, "north-branch": 1}

    juno = LostReport.objects.get(jurisdiction__slug="glencoe")
    pepper = LostReport.objects.get(jurisdiction__slug="north-branch")
    assert juno.reporter == pepper.reporter == users["resident"]
    assert juno.status == LostStatus.MATCHED and pepper.status == LostStatus.OPEN
    (match,) = juno.matches.select_related("case")
    assert match.case.jurisdiction.slug == "glencoe" and match.case.breed == "Labrador mix"
    assert not pepper.matches.exists()
    days = rule_in_force(juno.jurisdiction, "lost_report_open_days", on=timezone.localdate()).value
    assert juno.expires_on == timezone.localdate() + timedelta(days=days)

    page = client_as(users["officer"]).get(reverse("impound:lost_reports"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Juno" in html and "Pepper" in html and match.case.number in html

    assert fill_demo_lost(cities, users=users, now=now) == {}
    assert LostReport.objects.count() == 2 and LostMatch.objects.count() == 1
