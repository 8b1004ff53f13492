from django.apps import AppConfig


class OrdinanceConfig(AppConfig):
    name = "ordinance"
    verbose_name = "Ordinance rulebook"

    def ready(self):
        # The menu is base's registry; the rulebook imports no app of ours
        # (architecture.md; the import-linter contracts in pyproject.toml).
        from django.db.models.signals import post_delete, post_save
        from django.utils.translation import gettext_lazy as _

        from base import nav
        from base.roles import STAFF_ROLES

        from .deadlines import records_changed
        from .models import RuleValue
        from .rules import forget_read_rules

        # Any row saved or deleted anywhere may move a deadline: the home page's cached
        # list is read afresh (deadlines.upcoming_cached).
        post_save.connect(records_changed, dispatch_uid="upcoming_changed_s")
        post_delete.connect(records_changed, dispatch_uid="upcoming_changed_d")

        post_save.connect(forget_read_rules, sender=RuleValue, dispatch_uid="forget_rules_s")
        post_delete.connect(forget_read_rules, sender=RuleValue, dispatch_uid="forget_rules_d")

        nav.register(_("Ordinance rules"), "ordinance:profile_list", roles=STAFF_ROLES, order=80)
        nav.register(_("Fee schedule"), "ordinance:fee_schedule", roles=STAFF_ROLES, order=85)
