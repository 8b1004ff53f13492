"""The menu registry (base.nav): entries by role, in order; a URL that does not resolve
(an app not installed) is left out rather than breaking every page."""

import pytest

from base import nav


@pytest.fixture(autouse=True)
def _registry():
    saved = list(nav._items)
    nav._items.clear()
    yield
    nav._items[:] = saved


class Persona:
    def __init__(self, *roles):
        self.roles = set(roles)

    def has_role(self, *roles):
        return bool(self.roles & set(roles))


def test_a_user_sees_the_entries_of_their_roles_in_order():
    nav.register("Documents", "notices:document_list", roles=("clerk",), order=90)
    nav.register("Fee schedule", "ordinance:fee_schedule", roles=("clerk",), order=85)
    nav.register("My animals", "licensing:portal_home", roles=("resident",), order=10)
    assert [label for label, _url, _name in nav.items_for(Persona("clerk"))] == [
        "Fee schedule",
        "Documents",
    ]


def test_registering_an_entry_twice_lists_it_once_and_a_missing_url_is_skipped():
    nav.register("Documents", "notices:document_list", roles=("clerk",))
    nav.register("Documents", "notices:document_list", roles=("clerk",))
    nav.register("Not installed", "nowhere:page", roles=("clerk",))
    assert nav.items_for(Persona("clerk")) == [
        ("Documents", "/documents/", "notices:document_list")
    ]
