from django.apps import AppConfig


class OrdinanceConfig(AppConfig):
    name = "ordinance"
    verbose_name = "Ordinance rulebook"

    def ready(self):
        # The menu is base's registry; the rulebook imports no app of ours
        # (architecture.md; the import-linter contracts in pyproject.toml).
        from base import nav
        from base.roles import STAFF_ROLES

        nav.register("Ordinance rules", "ordinance:profile_list", roles=STAFF_ROLES, order=80)
        nav.register("Fee schedule", "ordinance:fee_schedule", roles=STAFF_ROLES, order=85)
