"""The code an authenticator app shows for a staff member's device.

Tests log in through the second step the way a person would: they read the key the user
scanned and compute the app's current code from it (RFC 6238, django-otp's own TOTP).
"""

from base64 import b32decode

from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import APP_DEVICE_NAME


def code_for(device: TOTPDevice) -> str:
    """The app's code now, or the next one if this one was used already (the server
    refuses a code twice; the app would show the next one within 30 seconds, and the
    server's tolerance of one step accepts it at once)."""
    device.refresh_from_db()
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    t = totp.t()
    if device.last_t >= t:
        totp.drift += device.last_t + 1 - t
    return f"{totp.token():0{device.digits}d}"


def code_for_typed_key(key: str) -> str:
    """The code for the key written out on the enrollment page ("ABCD EFGH ..."), as an
    app computes it once the key is typed in."""
    key = key.replace(" ", "").upper()
    return f"{TOTP(b32decode(key + '=' * (-len(key) % 8))).token():06d}"


def enrolled_device(user) -> TOTPDevice:
    """The user's authenticator app, set up earlier (as production requires of an
    administrator) if they have none yet."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=APP_DEVICE_NAME, confirmed=True)
        user.second_factor_since = device.created_at
        user.save(update_fields=["second_factor_since"])
    return device
