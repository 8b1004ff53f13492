from django.apps import AppConfig


class OrdinanceConfig(AppConfig):
    name = "ordinance"
    verbose_name = "Ordinance rulebook"

    def ready(self):
        # Navigation lives in accounts (a plain registry); the rulebook's own logic
        # (rules, fees, calendar) imports no other app.
        from accounts import nav
        from accounts.roles import STAFF_ROLES

        nav.register("Ordinance rules", "ordinance:profile_list", roles=STAFF_ROLES, order=80)
        nav.register("Fee schedule", "ordinance:fee_schedule", roles=STAFF_ROLES, order=85)
