from django.core.management.base import BaseCommand

from ordinance import deadlines


class Command(BaseCommand):
    help = "Run every deadline sweep once (what beat runs periodically)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Count, change nothing.")

    def handle(self, *args, dry_run=False, **options):
        results = deadlines.sweep_all(dry_run=dry_run)
        summary = "; ".join(str(r) for r in results) or "no sweeps registered"
        self.stdout.write(("[dry run] " if dry_run else "") + summary)
