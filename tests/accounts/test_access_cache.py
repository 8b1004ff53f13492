"""What every page reads is kept in the cache: the user's row, their
roles and cities, each city's rule rows, the home page's deadline list. A change shows on
the next page: these tests change each thing between two requests of the same session."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from base.roles import CLERK, OFFICER
from licensing.models import KennelLicense
from ordinance import deadlines
from tests.licensing.factories import OwnerFactory, PremisesFactory

pytestmark = pytest.mark.django_db

HOME = "/staff/"


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url).status_code
    return status, len(queries)


def test_a_warm_page_reads_no_user_role_city_or_session_row(client, clerk):
    client.force_login(clerk)
    client.get(HOME)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(HOME).status_code == 200
    tables = " ".join(q["sql"] for q in queries)
    for table in ("accounts_user", "auth_group", "ordinance_jurisdiction", "django_session"):
        assert f'FROM "{table}"' not in tables


def test_a_role_taken_away_is_refused_on_the_next_page(client, clerk):
    client.force_login(clerk)
    assert client.get(HOME).status_code == 200
    clerk.groups.remove(Group.objects.get(name=CLERK))
    assert client.get(HOME).status_code in (302, 403)


def test_a_role_given_through_the_group_shows_on_the_next_page(client, clerk):
    client.force_login(clerk)
    client.get(HOME)
    Group.objects.get(name=OFFICER).user_set.add(clerk)
    from accounts.models import User

    fresh = User.objects.get(pk=clerk.pk)
    assert fresh.roles == {CLERK, OFFICER}


def test_a_deactivated_user_is_logged_out_on_the_next_page(client, clerk):
    client.force_login(clerk)
    assert client.get(HOME).status_code == 200
    clerk.is_active = False
    clerk.save()
    response = client.get(HOME)
    assert response.status_code == 302 and "login" in response.url


def test_a_city_taken_away_hides_its_records_on_the_next_page(client, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    client.force_login(clerk)
    url = reverse("licensing:owner_detail", args=[owner.pk])
    assert client.get(url).status_code == 200
    clerk.jurisdictions.remove(north_branch)
    assert client.get(url).status_code in (403, 404)


@pytest.mark.clock("2026-06-15T10:00")
def test_the_home_page_list_is_read_afresh_after_a_write(client, clerk, north_branch):
    client.force_login(clerk)
    today = timezone.localdate()
    assert b"Kennel license expires" not in client.get(HOME).content
    _status, warm = _queries(client, HOME)
    premises = PremisesFactory(jurisdiction=north_branch)
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        owner=OwnerFactory(jurisdiction=north_branch),
        premises=premises,
        status="active",
        applied_on=today - timedelta(days=200),
        expires_on=today + timedelta(days=2),
    )
    assert b"Kennel license expires" in client.get(HOME).content
    assert warm <= 10


@pytest.mark.clock("2026-06-15T10:00")
def test_a_sweep_run_moves_the_home_page_list_on(clerk, north_branch):
    today = timezone.localdate()
    premises = PremisesFactory(jurisdiction=north_branch)
    owner = OwnerFactory(jurisdiction=north_branch)
    first = deadlines.upcoming_cached(jurisdiction_ids=[north_branch.pk], today=today)
    kennel = KennelLicense(
        jurisdiction=north_branch,
        owner=owner,
        premises=premises,
        status="active",
        applied_on=today - timedelta(days=200),
        expires_on=today + timedelta(days=2),
    )
    KennelLicense.objects.bulk_create([kennel])  # a bulk write sends no signal
    assert deadlines.upcoming_cached(jurisdiction_ids=[north_branch.pk], today=today) == first
    deadlines.sweep_all()
    after = deadlines.upcoming_cached(jurisdiction_ids=[north_branch.pk], today=today)
    assert len(after) == len(first) + 1
