"""An administrator adds a city in Django admin and its profile is loaded at once."""

import pytest

from ordinance.models import Jurisdiction, RuleValue


@pytest.fixture
def superuser(cities):
    """A city is the installation's to add: a superuser's; an
    administrator changes only the cities they serve."""
    from accounts.models import User

    return User.objects.create_superuser("root", "root@example.org", "a-long-pass-phrase-here")


def test_an_administrator_does_not_add_a_city(client_as, administrator):
    assert client_as(administrator).get("/admin/ordinance/jurisdiction/add/").status_code == 403


def test_adding_a_city_in_admin_loads_its_profile(client_as, superuser):
    client = client_as(superuser)
    response = client.post(
        "/admin/ordinance/jurisdiction/add/",
        {
            "slug": "north-branch-2",
            "name": "City of North Branch (test)",
            "short_name": "NB test",
            "state": "MN",
            "profile_key": "north_branch",
            "seal_text": "",
            "address": "",
            "phone": "",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    city = Jurisdiction.objects.get(slug="north-branch-2")
    assert RuleValue.objects.filter(jurisdiction=city, key="impound_hold_business_days").exists()


def test_the_profile_is_chosen_from_the_shipped_files(client_as, superuser):
    body = client_as(superuser).get("/admin/ordinance/jurisdiction/add/").content.decode()
    assert 'value="north_branch"' in body and 'value="glencoe"' in body
