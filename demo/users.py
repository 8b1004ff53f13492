"""Demo accounts for every role; `make run` prints them (``demo_logins_text``)."""

from django.contrib.auth.models import Group

from accounts.models import User
from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT

# 15 characters at least (AUTH_PASSWORD_VALIDATORS): the demo obeys the rule it shows.
DEMO_PASSWORD = "animal-licensing-demo"

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
        users.append(user)
    return users


def demo_logins_text() -> str:
    lines = [f"  {u:<15} {r:<14} password: {DEMO_PASSWORD}" for u, r, *_ in DEMO_USERS]
    return "Demo logins:\n" + "\n".join(lines)
