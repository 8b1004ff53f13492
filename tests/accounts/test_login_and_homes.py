import pytest
from django.test import override_settings
from django.urls import reverse


@pytest.mark.parametrize(
    "persona,landing",
    [
        ("clerk", "accounts:staff_home"),
        ("officer", "accounts:staff_home"),
        ("administrator", "accounts:staff_home"),
        ("resident", "licensing:portal_home"),
    ],
)
def test_each_role_lands_on_its_home(request, client_as, persona, landing):
    client = client_as(request.getfixturevalue(persona))
    response = client.get(reverse("accounts:home"), follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == reverse(landing)


def test_login_page_logs_a_clerk_in(client, clerk):
    response = client.post(reverse("accounts:login"), {"username": "carol", "password": "pw-carol"})
    assert response.status_code == 302
    assert client.get(reverse("accounts:staff_home")).status_code == 200


def test_a_wrong_password_shows_an_error_on_the_form(client, clerk):
    response = client.post(reverse("accounts:login"), {"username": "carol", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_staff_cannot_reach_resident_pages_and_residents_not_staff_pages(
    client_as, clerk, resident
):
    assert client_as(clerk).get(reverse("accounts:resident_home")).status_code == 403
    assert client_as(resident).get(reverse("accounts:staff_home")).status_code == 403


def test_anonymous_users_are_sent_to_login(client, cities):
    response = client.get(reverse("accounts:staff_home"))
    assert response.status_code == 302 and response.url.startswith(reverse("accounts:login"))


def test_django_admin_is_for_administrators_only(client_as, clerk, administrator, client):
    assert client.get("/admin/").status_code == 302  # anonymous: to the login page
    assert client_as(clerk).get("/admin/", follow=True).status_code == 403
    client.logout()
    assert client_as(administrator).get("/admin/").status_code == 200


def test_single_jurisdiction_installation_names_the_city_and_no_other(client_as, no_cities):
    from base.roles import CLERK
    from ordinance.models import Jurisdiction
    from tests.conftest import make_user

    solo = Jurisdiction.objects.create(
        slug="north-branch",
        name="City of North Branch",
        short_name="North Branch",
        profile_key="north_branch",
    )
    body = (
        client_as(make_user("solo", CLERK, [solo]))
        .get(reverse("accounts:staff_home"))
        .content.decode()
    )
    assert "City of North Branch" in body and "Glencoe" not in body


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, AXES_COOLOFF_TIME=0.25)
def test_repeated_failures_lock_out_then_cool_off(client, clerk):
    import time_machine
    from django.utils import timezone

    login = reverse("accounts:login")
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for _ in range(3):
            client.post(login, {"username": "carol", "password": "wrong"})
        locked = client.post(login, {"username": "carol", "password": "pw-carol"})
        assert locked.status_code == 429
        assert "Too many failed log-in attempts" in locked.content.decode()
    # After the cool-off (15 minutes) the right password works again.
    with time_machine.travel(start + timezone.timedelta(minutes=16), tick=False):
        response = client.post(login, {"username": "carol", "password": "pw-carol"})
        assert response.status_code == 302
