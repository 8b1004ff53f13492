"""Run the license and kennel-license expiry by hand (LIC-07, KEN-05); beat runs it too."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from licensing.services.expiry import kennel_licenses_expire, licenses_expire


class Command(BaseCommand):
    help = "Expire dog and kennel licenses whose expiry date has passed (one UPDATE each)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Count, change nothing.")

    def handle(self, *args, dry_run=False, **options):
        now = timezone.now()  # one reading of the clock for both
        results = [
            licenses_expire(now=now, dry_run=dry_run),
            kennel_licenses_expire(now=now, dry_run=dry_run),
        ]
        self.stdout.write("; ".join(str(r) for r in results))
