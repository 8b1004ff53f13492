"""Every URL requires login and declares its roles; a wrong role gets 403 (style.md)."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from base.roles import ALL_ROLES
from tests.conftest import make_user

SAMPLE = {
    "int": "999999",
    "slug": "no-such-thing",
    "str": "x",
    "path": "x",
    "uuid": "00000000-0000-0000-0000-000000000000",
}


def walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin":
                continue
            yield from walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.callback


def concrete(route):
    route = re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLE[m.group(1) or "str"], route)
    return "/" + route.lstrip("^").rstrip("$")


def view_roles(callback):
    cls = getattr(callback, "view_class", None)
    if getattr(callback, "is_public", False):
        return None
    if hasattr(callback, "allowed_roles"):
        return callback.allowed_roles
    if cls is not None and getattr(cls, "allowed_roles", None):
        return frozenset(cls.allowed_roles)
    raise AssertionError(f"{callback} declares no roles")


ROUTES = sorted(set(walk(get_resolver().url_patterns)), key=lambda r: r[0])


def test_every_view_declares_its_roles():
    missing = []
    for route, callback in ROUTES:
        try:
            view_roles(callback)
        except AssertionError:
            missing.append(route)
    assert not missing, f"views without role declaration: {missing}"


@pytest.mark.parametrize("route,callback", ROUTES, ids=[r for r, _ in ROUTES])
def test_anonymous_is_sent_to_login_and_wrong_role_gets_403(client, cities, route, callback):
    roles = view_roles(callback)
    if roles is None:
        return
    url = concrete(route)
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response.url, url
    for role in set(ALL_ROLES) - set(roles):
        client.force_login(make_user(f"wrong-{role}", role, list(cities)))
        assert client.get(url).status_code == 403, (url, role)
        client.logout()
