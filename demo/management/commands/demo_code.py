from base64 import b32decode

from django.core.management.base import BaseCommand, CommandError
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from demo.users import DEMO_TOTP_KEY


class Command(BaseCommand):
    help = (
        "Print the code the demo administrator's authenticator app would show now (the "
        "demo-only key of demo/users.py). Refuses for an account whose key is not that "
        "published demo key, so it prints no real account's codes."
    )

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", default="admin")

    def handle(self, *args, username="admin", **options):
        key = b32decode(DEMO_TOTP_KEY).hex()
        device = TOTPDevice.objects.filter(user__username=username, confirmed=True, key=key).first()
        if device is None:
            raise CommandError(
                f"{username} has no authenticator on the demo key (run `manage.py demo_data`)."
            )
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        if device.last_t >= totp.t():
            # This one logged in already and is refused twice; the app's next code is
            # accepted now (the server allows one step of clock difference).
            totp.drift += device.last_t + 1 - totp.t()
        self.stdout.write(f"{totp.token():0{device.digits}d}")
