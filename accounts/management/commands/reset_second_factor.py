from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = (
        "Reset a staff member's two-step verification (a lost phone and lost recovery "
        "codes), for when no other administrator can do it in Django admin: their "
        "authenticator app and recovery codes are removed, and their next login asks "
        "them to set it up again (administrators) or takes the password alone. Recorded "
        "as an event on the account."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--dry-run", action="store_true", help="say what would be reset, change nothing"
        )

    def handle(self, *args, username, dry_run=False, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account with the username {username!r}.")
        if dry_run:
            state = "on" if services.has_second_factor(user) else "off"
            self.stdout.write(f"{username}: two-step verification is {state}; nothing changed.")
            return
        if services.second_factor_reset(user=user, via="manage.py reset_second_factor"):
            self.stdout.write(
                f"{username}: two-step verification reset; their next login sets it up again."
            )
        else:
            self.stdout.write(f"{username}: two-step verification was not on; nothing to reset.")
