"""Each city sees its own: Glencoe deleted its licensing section (701
Subd. 2(D)), so its staff are not offered "Issue a license", tag stock, tag lookup or the
online queue; a North Branch clerk is; an administrator serving both is. The menu reads
the rule from the cache (no query per page) and follows an amendment at once."""

from datetime import date

import pytest
from django.urls import reverse

from ordinance.amendments import rule_amend

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-02T10:00")]

LICENSING_ENTRIES = ("Issue a license", "Tag stock", "Tag lookup", ">Online<")


def menu(client):
    page = client.get(reverse("accounts:staff_home")).content.decode()
    return page[page.index('id="main-nav"') : page.index("</nav>")]


def test_glencoe_staff_are_not_offered_dog_licenses(client_as, glencoe_clerk):
    nav = menu(client_as(glencoe_clerk))
    for entry in LICENSING_ENTRIES:
        assert entry not in nav
    assert "Kennel licenses" in nav  # Glencoe licenses kennels (701 Subd. 4)


def test_north_branch_and_two_city_staff_are(client_as, clerk, administrator):
    for user in (clerk, administrator):
        nav = menu(client_as(user))
        for entry in LICENSING_ENTRIES:
            assert entry in nav


def test_an_amendment_that_ends_licensing_takes_the_entries_away(
    client_as, clerk, administrator, north_branch
):
    client = client_as(clerk)
    assert "Issue a license" in menu(client)
    rule_amend(
        jurisdiction=north_branch,
        key="dog_license_enabled",
        value=False,
        effective_from=date(2026, 12, 1),
        ordinance_ref="Test: Ord. No. 999",
        actor=administrator,
    )
    assert "Issue a license" not in menu(client)


def test_the_menu_costs_no_query_once_cached(client_as, glencoe_clerk, clerk, monkeypatch):
    """Once cached, asking each city whether it licenses dogs costs nothing: the page makes
    as many queries as with the question not asked at all."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from base import nav

    def queries(client):
        with CaptureQueriesContext(connection) as ctx:
            client.get(reverse("notices:document_list"))
        return len(ctx.captured_queries)

    for user in (glencoe_clerk, clerk):
        client = client_as(user)
        client.get(reverse("notices:document_list"))  # warms the cache
        asked = queries(client)
        unasked = [nav.NavItem(i.label, i.url_name, i.roles, i.order, None) for i in nav._items]
        monkeypatch.setattr(nav, "_items", unasked)
        assert queries(client) == asked
        monkeypatch.undo()


def test_the_menu_is_worked_out_once_for_the_same_roles_and_cities(
    client_as, clerk, glencoe_clerk, north_branch, monkeypatch
):
    """Two clerks of one city, on any page, share one menu (kept under
    their roles, cities, the day, the language and the rules' version); a clerk of the
    other city gets her own; a part of a page that shows no menu (the search results as
    the clerk types) does not work one out."""
    from base import nav
    from base.roles import CLERK
    from tests.conftest import make_user

    worked_out = []
    real = nav.items_for

    def counted(user):
        worked_out.append(user.username)
        return real(user)

    monkeypatch.setattr(nav, "items_for", counted)
    second = make_user("cleo", CLERK, [north_branch])
    for user in (clerk, second, clerk):
        assert "Issue a license" in menu(client_as(user))
    assert worked_out == ["carol"]
    assert "Issue a license" not in menu(client_as(glencoe_clerk))
    assert worked_out == ["carol", "gus"]
    typed = client_as(second).get(reverse("licensing:search"), {"q": "zz"}, HTTP_HX_REQUEST="true")
    assert typed.status_code == 200 and 'id="main-nav"' not in typed.content.decode()
    assert worked_out == ["carol", "gus"]


# --- Finish ------------------------------------------------------------


def test_administrators_have_the_admin_site_in_the_menu_and_clerks_do_not(
    client_as, clerk, administrator
):
    assert reverse("admin:index") in menu(client_as(administrator))
    assert reverse("admin:index") not in menu(client_as(clerk))


def test_every_page_names_a_favicon_that_is_served(client):
    from django.contrib.staticfiles import finders

    page = client.get(reverse("accounts:login")).content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
    assert finders.find("favicon.svg")


def test_the_login_page_carries_the_installation_s_name(client, settings, north_branch, glencoe):
    settings.SITE_NAME = "Chisago County Animal Services"
    page = client.get(reverse("accounts:login")).content.decode()
    assert "<title>Log in · Chisago County Animal Services</title>" in page
    assert "Chisago County Animal Services</p>" in page
