"""List each jurisdiction's blank ordinance values and what they block (rules.md App. G 1).

manage.py profile_check            # report
manage.py profile_check --load     # seed/refresh profile values first
manage.py profile_check --strict   # exit 1 if anything is blocked (for deploy checks)
"""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ordinance.amendments import load_profile
from ordinance.models import Jurisdiction
from ordinance.selectors import fee_tables, rules_in_force


class Command(BaseCommand):
    help = "List blank ordinance parameters per jurisdiction and the features they block."

    def add_arguments(self, parser):
        parser.add_argument("--jurisdiction", help="Slug of one jurisdiction (default: all).")
        parser.add_argument(
            "--load", action="store_true", help="Load each jurisdiction's profile data file first."
        )
        parser.add_argument(
            "--strict", action="store_true", help="Exit with status 1 when any feature is blocked."
        )

    def handle(self, *args, jurisdiction=None, load=False, strict=False, **options):
        jurisdictions = Jurisdiction.objects.order_by("name")
        if jurisdiction:
            jurisdictions = jurisdictions.filter(slug=jurisdiction)
            if not jurisdictions:
                raise CommandError(f"No jurisdiction with slug “{jurisdiction}”.")
        if load:
            for j in jurisdictions:
                self.stdout.write(f"{j.name}: {load_profile(j)} profile value(s) written")
        today = timezone.localdate()
        fees = {
            c.jurisdiction.pk: {f.code for f in c.in_force if f.amount is not None}
            for c in fee_tables(jurisdictions, on=today)
        }
        blocked = 0
        for city in rules_in_force(jurisdictions, on=today, with_text=False):
            blocked += self._report(city, fees[city.jurisdiction.pk])
        self.stdout.write(f"{blocked} blank parameter(s) block a feature.")
        if strict and blocked:
            raise CommandError(
                "Blank ordinance parameters block features (see above).", returncode=1
            )

    def _report(self, city, fee_codes_set):
        self.stdout.write(f"\n{city.jurisdiction.name} (profile {city.jurisdiction.profile_key})")
        if city.error:
            self.stdout.write(f"  ERROR: {city.error}")
            return 1
        fee_rules = {spec.rule: code for code, spec in city.profile.fees.items()}
        count = 0
        for line in city.blank_lines:
            code = fee_rules.get(line.spec.key)
            if code in fee_codes_set:
                continue  # the council's fee schedule supplies the amount
            where = "fee schedule" if line.spec.source == "fee_schedule" else "profile"
            blocks = "; ".join(line.spec.blocks) or "nothing refused; shown as blank"
            self.stdout.write(
                f"  BLANK {line.spec.key} ({line.citation}), set in the {where}: blocks {blocks}"
            )
            count += 1 if line.spec.blocks else 0
        if not city.blank_lines:
            self.stdout.write("  no blank parameters")
        return count
