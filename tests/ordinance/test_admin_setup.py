"""An administrator adds a city in Django admin and its profile is loaded at once."""

from ordinance.models import Jurisdiction, RuleValue


def test_adding_a_city_in_admin_loads_its_profile(client_as, administrator):
    client = client_as(administrator)
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


def test_the_profile_is_chosen_from_the_shipped_files(client_as, administrator):
    body = client_as(administrator).get("/admin/ordinance/jurisdiction/add/").content.decode()
    assert 'value="north_branch"' in body and 'value="glencoe"' in body
