import time

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.utils import timezone

from demo.clinics import fill_demo_clinics
from demo.complaints import fill_demo_complaints
from demo.dangerous_dogs import fill_demo_dangerous_dogs
from demo.impound import fill_demo_impound
from demo.jurisdictions import ensure_demo_jurisdictions
from demo.licensing import fill_demo_licensing
from demo.lost import fill_demo_lost
from demo.online import fill_demo_online
from demo.permits import fill_demo_permits
from demo.rabies import fill_demo_rabies
from demo.registry import fill_bulk, fill_demo_registry
from demo.users import demo_logins_text, ensure_demo_users
from ordinance.rules import rules_read_once


class Command(BaseCommand):
    help = (
        "Load the demo cities (North Branch and Glencoe), demo staff, a demo registry, "
        "tag stock, licenses, receipts, kennels, a pound with impound cases and "
        "dangerous-dog cases, and the demo resident's lost-pet reports. "
        "Idempotent. --size N adds N more animals in bulk for load tests."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--size",
            type=int,
            default=0,
            help="also generate this many animals in bulk (e.g. 200000)",
        )

    def handle(self, *args, **options):
        # As a request does: each city's rule rows are read once, not at every lookup of
        # the season the demo plays (a write to a rule value forgets them).
        with rules_read_once():
            self._load(*args, **options)

    @transaction.atomic
    def _load(self, *args, size=0, **options):
        now = timezone.now()
        today = timezone.localdate(now)
        jurisdictions = ensure_demo_jurisdictions()
        users = ensure_demo_users({j.slug: j for j in jurisdictions})
        resident = next((u for u in users if u.username == "resident"), None)
        added = fill_demo_registry(jurisdictions, today=today, resident_user=resident)
        for slug, count in added.items():
            self.stdout.write(
                f"  {slug}: {count} demo animals added"
                if count
                else f"  {slug}: demo registry already loaded"
            )
        licensing = fill_demo_licensing(
            jurisdictions, users={u.username: u for u in users}, today=today, now=now
        )
        for slug, counts in licensing.items():
            self.stdout.write(
                f"  {slug}: "
                + (
                    ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(counts.items()))
                    or "demo licensing already loaded"
                )
            )
        impound = fill_demo_impound(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(impound.items()):
            self.stdout.write(f"  {slug}: {count} impound cases on the board")
        dangerous = fill_demo_dangerous_dogs(
            jurisdictions, users={u.username: u for u in users}, now=now
        )
        for slug, count in sorted(dangerous.items()):
            self.stdout.write(f"  {slug}: {count} dangerous-dog records")
        rabies = fill_demo_rabies(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(rabies.items()):
            self.stdout.write(f"  {slug}: {count} bite, quarantine and exposure records")
        complaints = fill_demo_complaints(
            jurisdictions, users={u.username: u for u in users}, now=now
        )
        for slug, count in sorted(complaints.items()):
            self.stdout.write(f"  {slug}: {count} complaints")
        permits = fill_demo_permits(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(permits.items()):
            self.stdout.write(f"  {slug}: {count} permits")
        clinics = fill_demo_clinics(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(clinics.items()):
            self.stdout.write(f"  {slug}: {count} rabies certificates from the demo clinic")
        online = fill_demo_online(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(online.items()):
            self.stdout.write(f"  {slug}: {count} online requests from the demo resident")
        lost = fill_demo_lost(jurisdictions, users={u.username: u for u in users}, now=now)
        for slug, count in sorted(lost.items()):
            self.stdout.write(f"  {slug}: {count} lost-pet report(s) from the demo resident")
        if size:
            started = time.monotonic()
            bulk = fill_bulk(jurisdictions, size=size, today=today)
            self.stdout.write(
                f"  bulk: {bulk} animals added in {time.monotonic() - started:.1f}s"
                if bulk
                else "  bulk: already loaded"
            )
            if bulk:
                _refresh_planner_statistics()
        self.stdout.write(f"Demo data ready: {', '.join(j.short_name for j in jurisdictions)}.")
        self.stdout.write(demo_logins_text())


def _refresh_planner_statistics():
    """After a bulk load on PostgreSQL: merge the GIN (trigram) indexes' pending lists,
    which a bulk insert leaves unmerged and the planner then prices as a whole-list scan,
    and ANALYZE, so the search box's lookups use their indexes.
    Both work inside the load's transaction (VACUUM would not)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE am.amname = 'gin' AND n.nspname = current_schema()"
        )
        cursor.execute("ANALYZE")
