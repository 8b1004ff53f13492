"""Demo accounts for every role; `make run` prints them (``demo_logins_text``)."""

from base64 import b32decode

from django.contrib.auth.models import Group
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User
from accounts.services import APP_DEVICE_NAME, key_for_typing
from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT, VETERINARIAN

# 15 characters at least (AUTH_PASSWORD_VALIDATORS): the demo obeys the rule it shows.
DEMO_PASSWORD = "animal-licensing-demo"

# The demo administrator's authenticator key (administrators must use
# two-step verification). Demo only: it is printed by `make run` and in the README, so
# anyone can compute its codes. Type it into an authenticator app, or run
# `manage.py demo_code` for the code of the moment.
DEMO_TOTP_KEY = "ANIMALLICENSINGDEMOKEYONLY234567"

# (username, role, first, last, title, jurisdiction slugs served)
DEMO_USERS = [
    (
        "admin",
        ADMINISTRATOR,
        "Avery",
        "Lindqvist",
        "City Administrator",
        ["north-branch", "glencoe"],
    ),
    ("clerk", CLERK, "Carol", "Nyberg", "Deputy City Clerk", ["north-branch"]),
    ("clerk.glencoe", CLERK, "Gus", "Hanson", "City Clerk", ["glencoe"]),
    ("officer", OFFICER, "Olivia", "Brandt", "Animal Control Officer", ["north-branch", "glencoe"]),
    ("resident", RESIDENT, "Rita", "Johnson", "", []),
    # A veterinary clinic's person: demo.clinics makes the clinic and ties the login to it.
    ("vet", VETERINARIAN, "Vera", "Lind", "Practice Manager", []),
]


def ensure_demo_users(jurisdictions_by_slug) -> list[User]:
    users = []
    for username, role, first, last, title, slugs in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={
                "first_name": first,
                "last_name": last,
                "title": title,
                "email": f"{username}@example.org",
            },
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        user.groups.set([Group.objects.get(name=role)])
        user.jurisdictions.set([jurisdictions_by_slug[s] for s in slugs])
        if role == ADMINISTRATOR:
            ensure_demo_authenticator(user)
        users.append(user)
    return users


def ensure_demo_authenticator(user) -> TOTPDevice:
    """The demo administrator's app, on the published demo key; one set up since (the
    person enrolled their own phone) is left alone."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(
            user=user, name=APP_DEVICE_NAME, confirmed=True, key=b32decode(DEMO_TOTP_KEY).hex()
        )
        user.second_factor_since = device.created_at
        user.save(update_fields=["second_factor_since"])
    return device


def demo_key_for_typing() -> str:
    return key_for_typing(TOTPDevice(key=b32decode(DEMO_TOTP_KEY).hex()))


def demo_logins_text() -> str:
    lines = [f"  {u:<15} {r:<14} password: {DEMO_PASSWORD}" for u, r, *_ in DEMO_USERS]
    lines += [
        "  admin then asks for a code (two-step verification). Add this demo-only key to",
        f"  an authenticator app: {demo_key_for_typing()}",
        "  or print the current code: .venv/bin/python manage.py demo_code",
    ]
    return "Demo logins:\n" + "\n".join(lines)
