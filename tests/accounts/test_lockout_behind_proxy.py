"""Lockout behind the reverse proxy: the client's address comes from
X-Forwarded-For through the trusted proxies only, so five wrong passwords lock out the
guesser, not every clerk behind the same proxy; one address spraying a password over
many usernames is stopped too; a client cannot pick its address by writing the header."""

import pytest
from django.test import override_settings
from django.urls import reverse

from base.client_ip import client_ip
from base.roles import CLERK
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.5"
LOCKOUT = dict(AXES_ENABLED=True, AXES_FAILURE_LIMIT=5, TRUSTED_PROXY_COUNT=1)


def request_from(xff, remote=PROXY):
    from django.test import RequestFactory

    request = RequestFactory().get("/", REMOTE_ADDR=remote)
    if xff is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = xff
    return request


@pytest.mark.parametrize(
    "count, xff, expected",
    [
        (0, "203.0.113.7", PROXY),  # no proxy trusted: the header is ignored
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),  # the left one is the client's word
        (2, "203.0.113.7, 192.0.2.9", "203.0.113.7"),  # a CDN and then our proxy
        (2, "192.0.2.9", PROXY),  # fewer entries than proxies: not through them all
        (1, "not-an-address", PROXY),
        (1, None, PROXY),
    ],
)
def test_the_client_address_through_the_trusted_proxies(settings, count, xff, expected):
    settings.TRUSTED_PROXY_COUNT = count
    assert client_ip(request_from(xff)) == expected


def post(client, username, password, ip):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=ip,
    )


@override_settings(**LOCKOUT)
def test_a_guesser_is_locked_out_and_the_clerk_behind_the_same_proxy_is_not(client, cities):
    carol = make_user("carol", CLERK)
    for _ in range(5):
        post(client, "carol", "wrong guess", "198.51.100.66")
    assert post(client, "carol", "pw-carol", "198.51.100.66").status_code == 429
    client.cookies.clear()
    assert post(client, "carol", "pw-carol", "203.0.113.10").status_code == 302
    assert carol.pk  # the clerk at city hall logged in through the same proxy


@override_settings(**LOCKOUT, LOGIN_FAILURES_PER_ADDRESS=8)
def test_one_address_spraying_a_password_over_many_usernames_is_stopped(client, cities):
    for n in range(8):
        make_user(f"user{n}", CLERK)
        post(client, f"user{n}", "Winter2026!", "198.51.100.77")
    make_user("dora", CLERK)
    # Even the right password of another account: the address is refused for a while.
    assert post(client, "dora", "pw-dora", "198.51.100.77").status_code == 429
    # Another address is not.
    assert post(client, "dora", "pw-dora", "203.0.113.11").status_code == 302


@override_settings(**LOCKOUT)
def test_a_username_over_150_characters_is_a_form_error(client, cities):
    response = post(client, "x" * 5000, "whatever it is", "198.51.100.5")
    assert response.status_code == 200
    assert response.context["form"].errors
