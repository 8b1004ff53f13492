"""The demo administrator passes two-step verification with a published demo-only key,
so `make run` still lets a person log in as `admin`."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from demo.jurisdictions import ensure_demo_jurisdictions
from demo.users import DEMO_PASSWORD, DEMO_TOTP_KEY, demo_logins_text, ensure_demo_users
from tests.totp import code_for_typed_key


@pytest.fixture
def demo_users(db):
    cities = ensure_demo_jurisdictions()
    return {u.username: u for u in ensure_demo_users({c.slug: c for c in cities})}


def _demo_code() -> str:
    out = StringIO()
    call_command("demo_code", stdout=out)
    return out.getvalue().strip()


def test_the_demo_administrator_logs_in_with_the_printed_key(demo_users):
    text = demo_logins_text()
    typed = text.split("authenticator app: ")[1].splitlines()[0]
    assert typed.replace(" ", "") == DEMO_TOTP_KEY
    person = Client()
    person.post(reverse("accounts:login"), {"username": "admin", "password": DEMO_PASSWORD})
    assert person.get(reverse("accounts:staff_home")).url.startswith(
        reverse("accounts:second_factor_verify")
    )
    assert code_for_typed_key(typed) == _demo_code()
    response = person.post(
        reverse("accounts:second_factor_verify"), {"code": code_for_typed_key(typed)}
    )
    assert response.status_code == 302
    assert person.get("/admin/").status_code == 200
    # Logged in again at once: demo_code gives the app's next code, which is accepted.
    again = Client()
    again.post(reverse("accounts:login"), {"username": "admin", "password": DEMO_PASSWORD})
    assert again.post(reverse("accounts:second_factor_verify"), {"code": _demo_code()}).url
    assert again.get("/admin/").status_code == 200


def test_loading_the_demo_again_keeps_one_device_and_a_phone_enrolled_since(demo_users):
    admin = demo_users["admin"]
    assert TOTPDevice.objects.filter(user=admin).count() == 1
    assert not TOTPDevice.objects.exclude(user=admin).exists()  # only the administrator
    cities = ensure_demo_jurisdictions()
    ensure_demo_users({c.slug: c for c in cities})
    assert TOTPDevice.objects.filter(user=admin).count() == 1
    # The person set up their own phone instead: the demo leaves it, and demo_code
    # prints no code for a key that is not the published one.
    TOTPDevice.objects.filter(user=admin).update(key="ab" * 20)
    ensure_demo_users({c.slug: c for c in cities})
    assert list(TOTPDevice.objects.filter(user=admin).values_list("key", flat=True)) == ["ab" * 20]
    with pytest.raises(CommandError, match="no authenticator on the demo key"):
        _demo_code()
