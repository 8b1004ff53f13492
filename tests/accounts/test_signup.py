"""Residents sign up online: e-mail verification before the first
login, the resident role and nothing more, login by username or e-mail, passwords of 15
characters at least that are not common, and a password reset by e-mail."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.password_validation import validate_password
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.urls import reverse

from accounts.models import User
from base.roles import RESIDENT

GOOD_PASSWORD = "correct horse battery staple"  # 28 characters, four words


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts mails per address in the cache: each test starts with none sent."""
    from django.core.cache import cache

    cache.clear()


def _sign_up(client, *, username="dana", email="dana@example.org", password=GOOD_PASSWORD):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": password, "password2": password},
    )


def _link_in(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


@pytest.fixture
def signed_up(client, cities):
    response = _sign_up(client)
    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    return User.objects.get(username="dana")


def test_sign_up_sends_a_verification_mail_and_the_link_confirms_it(client, signed_up):
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dana@example.org"]
    assert "Confirm your e-mail address" in message.subject
    link = _link_in(message)
    page = client.get(link)
    assert page.status_code == 200 and "dana@example.org" in page.content.decode()
    # The GET only shows the button (a mail scanner's visit confirms nothing).
    assert not EmailAddress.objects.get(user=signed_up).verified
    response = client.post(link)
    assert response.status_code == 302 and response.url == reverse("accounts:login")
    assert EmailAddress.objects.get(user=signed_up).verified


def test_a_new_account_is_a_resident_and_nothing_more(signed_up):
    user = User.objects.get(pk=signed_up.pk)
    assert list(user.groups.values_list("name", flat=True)) == [RESIDENT]
    assert not user.is_staff and not user.is_superuser
    assert not user.jurisdictions.exists() and not user.user_permissions.exists()
    assert user.jurisdiction_ids == frozenset() and not user.is_staff_member


def test_no_login_before_the_address_is_confirmed_and_the_link_is_sent_again(client, signed_up):
    response = client.post(
        reverse("accounts:login"), {"username": "dana", "password": GOOD_PASSWORD}
    )
    assert response.status_code == 200
    assert "Confirm your e-mail address first" in response.content.decode()
    assert "_auth_user_id" not in client.session


def _verify(user):
    EmailAddress.objects.filter(user=user).update(verified=True)


@pytest.mark.parametrize("login", ["dana", "dana@example.org", "DANA@example.org"])
def test_a_confirmed_resident_logs_in_by_username_or_e_mail(client, signed_up, login):
    _verify(signed_up)
    response = client.post(
        reverse("accounts:login"), {"username": login, "password": GOOD_PASSWORD}
    )
    assert response.status_code == 302
    assert client.get(reverse("accounts:home")).url == reverse("accounts:resident_home")


def test_the_login_page_offers_sign_up_and_password_reset(client, cities):
    body = client.get(reverse("accounts:login")).content.decode()
    assert "Username or e-mail" in body
    assert reverse("account_signup") in body and "Create an account" in body
    assert reverse("account_reset_password") in body and "Forgot your password?" in body


def test_allauth_login_address_sends_to_our_login_page(client, cities):
    response = client.get(reverse("account_login") + "?next=/my/animals/")
    assert response.status_code == 302
    assert response.url == reverse("accounts:login") + "?next=/my/animals/"


@pytest.mark.parametrize(
    "password, message",
    [
        ("fourteen-chars", "at least 15 characters"),  # 14 characters
        ("1q2w3e4r5t6y7u8i9o0p", "too common"),  # 20 characters, a keyboard walk on the list
    ],
)
def test_a_short_or_common_password_is_refused_and_the_form_is_kept(
    client, cities, password, message
):
    response = _sign_up(client, password=password)
    assert response.status_code == 200
    body = response.content.decode()
    assert message in body
    assert 'value="dana@example.org"' in body and 'value="dana"' in body
    assert not User.objects.filter(username="dana").exists() and not mail.outbox


def test_no_composition_rule_fifteen_lowercase_letters_do(cities):
    validate_password("quietriverstone")  # 15 letters, no digit, no symbol
    with pytest.raises(ValidationError):
        validate_password("a" * 14)


def test_the_demo_password_obeys_the_rules():
    from demo.users import DEMO_PASSWORD

    validate_password(DEMO_PASSWORD)


def test_password_reset_by_e_mail(client, signed_up):
    _verify(signed_up)
    mail.outbox.clear()
    response = client.post(reverse("account_reset_password"), {"email": "dana@example.org"})
    assert response.status_code == 302 and response.url == reverse("account_reset_password_done")
    assert len(mail.outbox) == 1 and "Reset your password" in mail.outbox[0].subject
    link = _link_in(mail.outbox[0])
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    new = "a new long passphrase for dana"
    short = client.post(form_url, {"password1": "too-short", "password2": "too-short"})
    assert short.status_code == 200 and "at least 15 characters" in short.content.decode()
    done = client.post(form_url, {"password1": new, "password2": new})
    assert done.status_code == 302 and done.url == reverse("account_reset_password_from_key_done")
    signed_up.refresh_from_db()
    assert signed_up.check_password(new)
    login = client.post(reverse("accounts:login"), {"username": "dana", "password": new})
    assert login.status_code == 302


def test_a_reset_for_an_unknown_address_reveals_nothing(client, cities):
    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response.url == reverse("account_reset_password_done")


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3, AXES_COOLOFF_TIME=0.25)
def test_axes_locks_out_guesses_at_an_e_mail_address_as_at_a_username(client, signed_up):
    """Axes sits first among the backends, before allauth's: a login by e-mail is
    counted and locked out like one by username (AXES_LOCKOUT_PARAMETERS)."""
    _verify(signed_up)
    login = reverse("accounts:login")
    for _ in range(3):
        client.post(login, {"username": "dana@example.org", "password": "wrong guess"})
    locked = client.post(login, {"username": "dana@example.org", "password": GOOD_PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
