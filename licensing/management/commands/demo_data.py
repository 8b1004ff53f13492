from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.demo import demo_logins_text, ensure_demo_users
from ordinance.demo import ensure_demo_jurisdictions


class Command(BaseCommand):
    help = "Load the demo cities (North Branch and Glencoe) and demo staff. Idempotent."

    @transaction.atomic
    def handle(self, *args, **options):
        jurisdictions = ensure_demo_jurisdictions()
        ensure_demo_users({j.slug: j for j in jurisdictions})
        self.stdout.write(f"Demo data ready: {', '.join(j.short_name for j in jurisdictions)}.")
        self.stdout.write(demo_logins_text())
