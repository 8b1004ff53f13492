"""Two-step verification for staff: a code from an authenticator app
after the password, recovery codes, enrollment (required of administrators), the lost
phone. These tests log in with a plain client, password and code, as a person does; the
suite's ``client`` fixture passes the second step by itself (tests/conftest.py)."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import services
from base.roles import ADMINISTRATOR, CLERK
from ordinance.models import Event
from tests.conftest import Client as PastSecondStep
from tests.conftest import make_user
from tests.totp import code_for, code_for_typed_key, enrolled_device

VERIFY = reverse("accounts:second_factor_verify")
ENROLL = reverse("accounts:second_factor_enroll")
ACCOUNT = reverse("accounts:second_factor")
CODES = reverse("accounts:second_factor_codes")
TURN_OFF = reverse("accounts:second_factor_off")
STAFF_HOME = reverse("accounts:staff_home")


@pytest.fixture
def person():
    """A browser: a client that passes no step by itself."""
    return Client()


def password_step(client, user):
    response = client.post(
        reverse("accounts:login"), {"username": user.username, "password": f"pw-{user.username}"}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response


def field_error(response) -> str:
    """The message shown under the code field (crispy's invalid-feedback)."""
    found = re.search(r'id="error_1_[^"]*code"[^>]*>\s*<strong>(.*?)</strong>', response.text, re.S)
    return found.group(1).strip() if found else ""


def recovery_codes(user) -> list[str]:
    return list(
        StaticToken.objects.filter(device__user=user).order_by("pk").values_list("token", flat=True)
    )


def is_on(user) -> bool:
    user.refresh_from_db()
    return services.has_second_factor(user)


def enroll_with_codes(user) -> TOTPDevice:
    """A staff member who set up the app earlier, with their recovery codes."""
    device = enrolled_device(user)
    services._new_recovery_codes(user)
    return device


# --- logging in -----------------------------------------------------------------------


def test_a_clerk_with_an_app_enters_the_code_before_any_page(person, clerk):
    device = enroll_with_codes(clerk)
    response = password_step(person, clerk)
    assert person.get(response.url).url.startswith(VERIFY)
    for url in (STAFF_HOME, reverse("licensing:search"), ACCOUNT):
        response = person.get(url)
        assert response.status_code == 302 and response.url.startswith(VERIFY), url
    page = person.get(f"{VERIFY}?next={STAFF_HOME}")
    assert page.status_code == 200 and 'autocomplete="one-time-code"' in page.text
    response = person.post(VERIFY, {"code": code_for(device), "next": STAFF_HOME})
    assert response.status_code == 302 and response.url == STAFF_HOME
    assert person.get(STAFF_HOME).status_code == 200


def test_a_wrong_code_is_refused_next_to_the_field_and_repeated_tries_wait(person, clerk):
    device = enroll_with_codes(clerk)
    password_step(person, clerk)
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        wrong = person.post(VERIFY, {"code": "000000"})
        assert wrong.status_code == 400
        assert "That code is not right" in field_error(wrong)
        # Straight away again: django-otp's throttle (1, 2, 4... seconds) says how long.
        again = person.post(VERIFY, {"code": code_for(device)})
        assert again.status_code == 400
        assert "Too many wrong codes. Wait 1 second" in field_error(again)
        assert person.get(STAFF_HOME).status_code == 302
        for _ in range(3):
            clock.shift(timedelta(minutes=5))
            person.post(VERIFY, {"code": "111111"})
        device.refresh_from_db()
        assert device.throttling_failure_count == 4
        clock.shift(timedelta(seconds=3))
        assert "Wait 5 seconds" in field_error(person.post(VERIFY, {"code": code_for(device)}))
        clock.shift(timedelta(seconds=5))
        ok = person.post(VERIFY, {"code": code_for(device)})
    assert ok.status_code == 302
    assert person.get(STAFF_HOME).status_code == 200


@pytest.mark.parametrize("code", ["", "12", "x" * 41])
def test_an_empty_short_or_long_code_is_a_form_error_not_a_500(person, clerk, code):
    enroll_with_codes(clerk)
    password_step(person, clerk)
    response = person.post(VERIFY, {"code": code})
    assert response.status_code == 400 and field_error(response)


def test_a_recovery_code_logs_in_once(person, clerk):
    enroll_with_codes(clerk)
    code = recovery_codes(clerk)[0]
    password_step(person, clerk)
    response = person.post(VERIFY, {"code": code.upper()[:4] + " " + code[4:]}, follow=True)
    assert response.redirect_chain[-1][0] == STAFF_HOME
    assert "9 are left" in response.text
    assert code not in recovery_codes(clerk) and len(recovery_codes(clerk)) == 9
    event = Event.objects.for_object(clerk).get(action="accounts.second_factor.recovery_code_used")
    assert event.actor == clerk and event.data == {"left": 9}

    again = Client()
    password_step(again, clerk)
    refused = again.post(VERIFY, {"code": code})
    assert refused.status_code == 400 and "not right" in field_error(refused)


def test_next_is_kept_but_never_another_site(person, clerk):
    device = enroll_with_codes(clerk)
    person.post(
        reverse("accounts:login") + "?next=/search/",
        {"username": "carol", "password": "pw-carol", "next": "/search/"},
    )
    response = person.get("/search/")
    assert response.url == f"{VERIFY}?next=%2Fsearch%2F"
    evil = person.post(VERIFY, {"code": code_for(device), "next": "https://evil.example/"})
    assert evil.url == reverse("accounts:home")


def test_a_clerk_without_an_app_and_a_resident_log_in_with_the_password_alone(
    person, clerk, resident
):
    password_step(person, clerk)
    assert person.get(STAFF_HOME).status_code == 200
    assert "Two-step verification is off for your account" in person.get(STAFF_HOME).text
    assert person.get(VERIFY).url == reverse("accounts:home")  # nothing to verify
    person.post(reverse("accounts:logout"))

    password_step(person, resident)
    home = person.get(reverse("accounts:home"), follow=True)
    assert home.status_code == 200
    assert home.redirect_chain[-1][0] == reverse("licensing:portal_home")
    for url in (VERIFY, ENROLL, ACCOUNT, CODES):
        assert person.get(url).status_code == 403, url
    assert not TOTPDevice.objects.filter(user=resident).exists()


# --- administrators -------------------------------------------------------------------


def test_an_administrator_without_an_app_must_enroll_before_any_page(person, administrator):
    password_step(person, administrator)
    for url in (STAFF_HOME, "/admin/", "/admin/accounts/user/", ACCOUNT, VERIFY, "/no-such/"):
        response = person.get(url)
        assert response.status_code == 302 and response.url.startswith(ENROLL), url
    page = person.get(f"{ENROLL}?next=/admin/")
    assert page.status_code == 200
    assert 'src="data:image/svg+xml;base64,' in page.text
    assert "Administrators must use two-step verification" in page.text
    key = re.search(r'<code class="fs-5" id="totp-key">([A-Z2-7 ]+)</code>', page.text).group(1)
    # Reloading shows the same key (the person may have scanned it already).
    assert key in person.get(ENROLL).text

    wrong = person.post(ENROLL, {"code": "123456", "next": "/admin/"})
    assert wrong.status_code == 400 and "not right" in field_error(wrong)
    assert key in wrong.text

    with time_machine.travel(timezone.now() + timedelta(seconds=2), tick=False):
        done = person.post(ENROLL, {"code": code_for_typed_key(key), "next": "/admin/"})
    assert done.status_code == 302 and done.url == f"{CODES}?next=%2Fadmin%2F"
    shown = person.get(done.url)
    codes = re.findall(r"<li>([a-z2-7]{8})</li>", shown.text)
    assert len(codes) == services.RECOVERY_CODE_COUNT
    assert sorted(codes) == sorted(recovery_codes(administrator))
    assert "data-print" in shown.text and 'href="/admin/"' in shown.text
    # Shown once: the page does not show them again.
    assert person.get(CODES).url == ACCOUNT
    assert person.get("/admin/").status_code == 200
    assert person.get(STAFF_HOME).status_code == 200
    assert Event.objects.for_object(administrator).filter(
        action="accounts.second_factor.enrolled", actor=administrator
    )


def test_the_django_admin_is_closed_to_an_administrator_before_the_code(person, administrator):
    device = enroll_with_codes(administrator)
    password_step(person, administrator)
    for url in ("/admin/", "/admin/accounts/user/", "/admin/ordinance/feeschedulerow/"):
        response = person.get(url)
        assert response.status_code == 302 and response.url.startswith(VERIFY), url
    person.post(VERIFY, {"code": code_for(device)})
    assert person.get("/admin/").status_code == 200


def test_the_admin_site_itself_refuses_a_session_not_verified(rf, administrator):
    """Behind the middleware, Django admin checks the second step again."""
    from django.contrib import admin

    request = rf.get("/admin/")
    request.user = administrator
    administrator.is_verified = lambda: False
    assert not admin.site.has_permission(request)
    administrator.is_verified = lambda: True
    assert admin.site.has_permission(request)


def test_an_administrator_cannot_turn_it_off(client, administrator):
    device = enrolled_device(administrator)
    client.force_login(administrator)
    page = client.get(ACCOUNT)
    assert "Administrators must keep two-step verification on" in page.text
    assert TURN_OFF not in page.text
    refused = client.post(TURN_OFF, {"code": code_for(device)}, follow=True)
    assert refused.redirect_chain == [(ACCOUNT, 302)]
    assert "Administrators must keep two-step verification on." in refused.text
    assert TOTPDevice.objects.filter(user=administrator, confirmed=True).exists()


# --- a clerk's own page ---------------------------------------------------------------


def test_a_clerk_turns_it_on_makes_new_codes_and_turns_it_off(client, clerk):
    client.force_login(clerk)
    page = client.get(ACCOUNT)
    assert "Off." in page.text and ENROLL in page.text
    assert ACCOUNT in client.get(STAFF_HOME).text  # the header's link to the account page
    key = re.search(r'id="totp-key">([A-Z2-7 ]+)<', client.get(ENROLL).text).group(1)
    assert client.post(ENROLL, {"code": code_for_typed_key(key)}).status_code == 302
    first = recovery_codes(clerk)
    assert len(client.get(CODES).text.split("<li>")) == services.RECOVERY_CODE_COUNT + 1
    page = client.get(ACCOUNT)
    assert "On." in page.text and "You have 10 unused recovery codes" in page.text
    assert client.get(ENROLL).url == ACCOUNT  # already on

    device = services.app_device(clerk)
    refused = client.post(CODES, {"code": "000000"})
    assert refused.status_code == 400 and "not right" in field_error(refused)
    with time_machine.travel(timezone.now() + timedelta(seconds=2), tick=False):
        assert client.post(CODES, {"code": code_for(device)}).url == CODES
    second = recovery_codes(clerk)
    assert len(second) == 10 and not set(first) & set(second)
    shown = client.get(CODES).text
    assert all(code in shown for code in second)

    with time_machine.travel(timezone.now() + timedelta(seconds=40), tick=False):
        wrong = client.post(TURN_OFF, {"code": "999999"})
        assert wrong.status_code == 400 and "not right" in field_error(wrong)
        assert is_on(clerk)
    with time_machine.travel(timezone.now() + timedelta(seconds=70), tick=False):
        off = client.post(TURN_OFF, {"code": code_for(device)}, follow=True)
    assert "Two-step verification is off for your account" in off.text
    assert not is_on(clerk) and not recovery_codes(clerk)
    assert [e.action for e in Event.objects.for_object(clerk).order_by("at", "pk")] == [
        "accounts.second_factor.enrolled",
        "accounts.second_factor.recovery_codes_replaced",
        "accounts.second_factor.turned_off",
    ]


def test_turn_off_is_a_post(client, clerk):
    client.force_login(clerk)
    assert client.get(TURN_OFF).status_code == 405


# --- a lost phone ---------------------------------------------------------------------


def _reset_in_admin(client, actor, *targets):
    client.force_login(actor)
    return client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "reset_second_factor", "_selected_action": [t.pk for t in targets]},
        follow=True,
    )


def test_an_administrator_resets_a_clerks_lost_phone_in_admin(
    client, administrator, clerk, glencoe_clerk
):
    enroll_with_codes(clerk)
    clerks_session = PastSecondStep()
    clerks_session.force_login(clerk)  # verified with the lost phone
    assert clerks_session.get(STAFF_HOME).status_code == 200

    client.force_login(administrator)
    before = client.get(reverse("admin:accounts_user_change", args=[clerk.pk]))
    assert "On since" in before.text and "10 recovery codes left" in before.text
    change = _reset_in_admin(client, administrator, clerk, glencoe_clerk)
    assert "Two-step verification reset for carol." in change.text
    assert "None of them" not in change.text
    assert not is_on(clerk) and not recovery_codes(clerk)
    event = Event.objects.for_object(clerk).get(action="accounts.second_factor.reset")
    assert event.actor == administrator and event.data == {"via": "admin"}
    assert "reset by avery" in event.summary
    # The session verified by the lost phone is no longer verified; a clerk needs none.
    assert clerks_session.get(STAFF_HOME).status_code == 200
    assert "Off" in client.get(reverse("admin:accounts_user_change", args=[clerk.pk])).text


def test_a_reset_administrator_must_enroll_again_and_their_old_session_ends_there(
    client, administrator, north_branch
):
    other = make_user("ned", ADMINISTRATOR, [north_branch])
    others_session = PastSecondStep()
    others_session.force_login(other)
    assert others_session.get("/admin/").status_code == 200
    _reset_in_admin(client, administrator, other)
    assert others_session.get("/admin/").url.startswith(ENROLL)


def test_an_administrator_resets_only_staff_of_their_own_cities_and_not_themselves(
    client, glencoe, north_branch
):
    gl_admin = make_user("gladys", ADMINISTRATOR, [glencoe])
    nb_clerk = make_user("nora", CLERK, [north_branch])
    root = make_user("root", ADMINISTRATOR, [], is_superuser=True)
    for user in (nb_clerk, root):
        enroll_with_codes(user)
    response = _reset_in_admin(client, gl_admin, nb_clerk, root, gl_admin)
    # Rows outside their cities are not in their list, so the action never sees them.
    assert is_on(nb_clerk) and is_on(root)
    assert is_on(gl_admin)
    assert "Not reset (your own account" in response.text and "gladys" in response.text
    assert not Event.objects.filter(action="accounts.second_factor.reset").exists()


def test_the_command_resets_the_last_administrator(administrator, capsys):
    enroll_with_codes(administrator)
    call_command("reset_second_factor", "avery", "--dry-run")
    assert "is on; nothing changed" in capsys.readouterr().out
    assert is_on(administrator)

    call_command("reset_second_factor", "avery")
    assert "avery: two-step verification reset" in capsys.readouterr().out
    assert not is_on(administrator) and not recovery_codes(administrator)
    event = Event.objects.for_object(administrator).get(action="accounts.second_factor.reset")
    assert event.actor is None and event.data == {"via": "manage.py reset_second_factor"}

    call_command("reset_second_factor", "avery")
    assert "was not on; nothing to reset" in capsys.readouterr().out
    with pytest.raises(CommandError, match="No account"):
        call_command("reset_second_factor", "nobody")

    person = Client()
    password_step(person, administrator)
    assert person.get(STAFF_HOME).url.startswith(ENROLL)
