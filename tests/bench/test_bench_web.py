"""`make bench-web`'s in-process half (tests/bench/bench_web.py), so it cannot rot: it
finds the clerk's license, animal and search pages, each answers 200, their queries are
counted, and the session cookie it hands to wrk opens the license page on its own. The
load itself (gunicorn, wrk, the bare site) runs only in `make bench-web`."""

import pytest
from django.test import Client

from licensing.models import License
from tests.bench.bench_web import measure_pages


@pytest.mark.django_db
def test_bench_web_measures_the_clerks_pages(world, clerk):
    found = measure_pages(clerk, runs=2, profile=True)

    pages = found["urls"]
    license = License.objects.get(pk=int(pages["license"].strip("/").split("/")[-1]))
    assert license.jurisdiction == world.nb  # the clerk's city
    assert license.receipt_id is not None
    assert pages["animal"] == f"/animals/{license.animal_id}/"
    assert pages["search"] == pages["search_typed"] == "/search/?q=john"
    for name in ("search", "search_typed", "license", "animal"):
        assert found["queries"][name] > 0
        # SQLite's in-memory queries can take under the timer's resolution.
        assert found["timing"][name]["wall_ms"] > found["timing"][name]["sql_ms"] >= 0
        assert found["timing"][name]["templates_ms"] > 0
    assert "licensing/views/counter.py" in found["profiles"]["license"]  # license_detail

    cookie_name, value = found["cookie"].split("=", 1)
    browser = Client()
    browser.cookies[cookie_name] = value
    assert browser.get(pages["license"]).status_code == 200
    assert Client().get(pages["license"]).status_code == 302  # no cookie: the login page


@pytest.mark.django_db
def test_the_floor_pages_are_staff_pages_of_the_users_cities(
    world,
    clerk,
    glencoe_clerk,
    resident,
    settings,
):
    """The two floor pages bench-web measures (tests/bench/floor.py) check the role and the
    city as every staff page does, in one query, and the layout one is the site's page."""
    from tests.bench import floor_settings

    settings.ROOT_URLCONF = floor_settings.ROOT_URLCONF
    settings.TEMPLATES = floor_settings.TEMPLATES
    license = world.license
    for kind in ("layout", "plain"):
        url = f"/bench-floor/{kind}/{license.pk}/"
        staff = Client()
        staff.force_login(clerk)
        staff.get(url)  # the session and the user's roles into the cache, as a warm worker
        response = staff.get(url)
        assert response.status_code == 200
        assert f"License {license.number}" in response.content.decode()
        assert ('id="main-nav"' in response.content.decode()) is (kind == "layout")
        other_city = Client()
        other_city.force_login(glencoe_clerk)
        assert other_city.get(url).status_code == 404
        not_staff = Client()
        not_staff.force_login(resident)
        assert not_staff.get(url).status_code == 403
        assert Client().get(url).status_code == 302  # the login page
