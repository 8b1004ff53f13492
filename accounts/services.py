"""Staff's second factor: a code from an authenticator app (TOTP) with
one-time recovery codes, on django-otp's devices.

Administrators must have one; clerks and officers may turn it on; residents are not
asked. A session passes the second step when it holds the time the user's app was set up
(``User.second_factor_since``, on the row every request loads: no extra query); a reset
or a new enrollment changes that time, which ends every session verified before. Every
change is an ``Event`` on the user's account.
Wrong codes are throttled by django-otp per device: 1, 2, 4, 8... seconds between tries.
"""

import math
from base64 import b32encode
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l
from django.utils.translation import ngettext
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from base.roles import ADMINISTRATOR
from ordinance.models import Event
from ordinance.refusals import Refused

RECOVERY_CODE_COUNT = 10
APP_DEVICE_NAME = "Authenticator app"
RECOVERY_DEVICE_NAME = "Recovery codes"


CODE = _l("Code")


def _refused(message: str) -> Refused:
    """A code that was not accepted, with the message shown next to the field."""
    return Refused.because(CODE, message, field="code")


@dataclass(frozen=True)
class Verified:
    device: object
    recovery_code_used: bool
    recovery_codes_left: int


def second_factor_required(user) -> bool:
    """Administrators handle the whole installation: no page without a second factor."""
    return user.has_role(ADMINISTRATOR)


def app_device(user, *, confirmed: bool = True) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=confirmed).order_by("pk").first()


def has_second_factor(user) -> bool:
    return user.second_factor_since is not None


SESSION_KEY = "second_step_passed"


def session_passed_second_step(session, user) -> bool:
    """The session passed the second step with the app the user has now."""
    since = user.second_factor_since
    return since is not None and session.get(SESSION_KEY) == since.isoformat()


def session_pass_second_step(session, user) -> None:
    session[SESSION_KEY] = user.second_factor_since.isoformat()


def second_step_for(user) -> str | None:
    """What a staff session that has not passed the second step must do first:
    "verify" (enter a code), "enroll" (an administrator without one), or nothing."""
    if has_second_factor(user):
        return "verify"
    if second_factor_required(user):
        return "enroll"
    return None


def recovery_codes_left(user) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def key_for_typing(device: TOTPDevice) -> str:
    """The secret as an authenticator app asks for it: base32, in groups of four."""
    key = b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(key[i : i + 4] for i in range(0, len(key), 4))


def _normalize(code: str) -> str:
    return "".join((code or "").split()).replace("-", "").lower()


def _wait_seconds(device) -> int:
    """Seconds until django-otp lets ``device`` check another code (0: now)."""
    allowed, info = device.verify_is_allowed()
    if allowed:
        return 0
    return max(1, math.ceil((info["locked_until"] - timezone.now()).total_seconds()))


def _check(device, code: str) -> Refused | None:
    """None when ``device`` accepts ``code``; else why not. The throttle's count is
    saved by django-otp, so this must not run in a transaction that is then rolled back."""
    wait = _wait_seconds(device)
    if wait:
        return _refused(
            ngettext(
                "Too many wrong codes. Wait %(n)d second and try again.",
                "Too many wrong codes. Wait %(n)d seconds and try again.",
                wait,
            )
            % {"n": wait}
        )
    if device.verify_token(code):
        return None
    message = _(
        "That code is not right. Enter the 6-digit code your authenticator app shows now, "
        "or one of your recovery codes."
    )
    wait = _wait_seconds(device) if device.throttling_failure_count > 2 else 0
    if wait:
        message += " " + ngettext(
            "Wait %(n)d second before the next try.",
            "Wait %(n)d seconds before the next try.",
            wait,
        ) % {"n": wait}
    return _refused(message)


def second_factor_verify(*, user, code: str) -> Verified:
    """The second step of logging in: a code from the app, or a recovery code (used once).

    Raises Refused (wrong, or too many wrong codes in a row)."""
    code = _normalize(code)
    if len(code) == 6 and code.isdigit():
        device = app_device(user)
    else:
        device = StaticDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        raise _refused(_("That code is not right."))
    refused = _check(device, code)
    if refused is not None:
        raise refused
    used_recovery = isinstance(device, StaticDevice)
    left = recovery_codes_left(user)
    if used_recovery:
        Event.record(
            "accounts.second_factor.recovery_code_used",
            user,
            actor=user,
            summary=f"{user.username} logged in with a recovery code ({left} left)",
            data={"left": left},
        )
    return Verified(device=device, recovery_code_used=used_recovery, recovery_codes_left=left)


def second_factor_enroll_start(*, user) -> TOTPDevice:
    """The key to scan: the unconfirmed device of an enrollment under way (so reloading
    the page shows the same QR code), or a new one."""
    device = app_device(user, confirmed=False)
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=APP_DEVICE_NAME, confirmed=False)
    return device


def _new_recovery_codes(user) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _i in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=c) for c in codes)
    return codes


def second_factor_enroll_confirm(*, user, code: str) -> tuple[TOTPDevice, list[str]]:
    """The first code from the app proves it holds the key: the device counts from now
    on, and the user gets fresh recovery codes (returned, to be shown once)."""
    device = app_device(user, confirmed=False)
    if device is None:
        raise _refused(_("Start again: scan the new QR code below."))
    refused = _check(device, _normalize(code))
    if refused is not None:
        raise refused
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        _mark(user, timezone.now())
        codes = _new_recovery_codes(user)
        Event.record(
            "accounts.second_factor.enrolled",
            user,
            actor=user,
            summary=f"{user.username} turned on two-step verification",
        )
    return device, codes


def _confirm_with_app(user, code: str) -> TOTPDevice:
    device = app_device(user)
    if device is None:
        raise _refused(_("Two-step verification is not on for this account."))
    refused = _check(device, _normalize(code))
    if refused is not None:
        raise refused
    return device


def recovery_codes_regenerate(*, user, code: str) -> list[str]:
    """New recovery codes (the old ones stop working), confirmed with a code from the app."""
    _confirm_with_app(user, code)
    with transaction.atomic():
        codes = _new_recovery_codes(user)
        Event.record(
            "accounts.second_factor.recovery_codes_replaced",
            user,
            actor=user,
            summary=f"{user.username} made new recovery codes",
        )
    return codes


def _mark(user, since) -> None:
    user.second_factor_since = since
    user.save(update_fields=["second_factor_since"])


def _remove_devices(user) -> int:
    removed, _per_model = TOTPDevice.objects.filter(user=user).delete()
    removed += StaticDevice.objects.filter(user=user).delete()[0]
    if user.second_factor_since is not None:
        _mark(user, None)
        removed = removed or 1
    return removed


def second_factor_turn_off(*, user, code: str) -> None:
    """A clerk or officer turns it off, confirmed with a code; administrators cannot."""
    if second_factor_required(user):
        raise _refused(_("Administrators must keep two-step verification on."))
    _confirm_with_app(user, code)
    with transaction.atomic():
        _remove_devices(user)
        Event.record(
            "accounts.second_factor.turned_off",
            user,
            actor=user,
            summary=f"{user.username} turned off two-step verification",
        )


def second_factor_reset(*, user, actor=None, via: str) -> bool:
    """A lost device: remove the user's app and recovery codes, so their next login asks
    them to enroll again (an administrator) or lets them in with the password (others).
    ``actor`` is the administrator who did it (None from the command line); ``via`` says
    where. Returns False when there was nothing to reset."""
    with transaction.atomic():
        if not _remove_devices(user):
            return False
        by = actor.username if actor is not None else via
        Event.record(
            "accounts.second_factor.reset",
            user,
            actor=actor,
            summary=f"Two-step verification of {user.username} reset by {by}",
            data={"via": via},
        )
    return True
