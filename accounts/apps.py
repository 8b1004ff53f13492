from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from django.utils.translation import gettext_lazy as _

        from base import nav
        from base.roles import ADMINISTRATOR, sync_role_permissions

        # The Django admin, for administrators only (issue 14, item 12), last in the menu.
        nav.register(_("Admin site"), "admin:index", roles=(ADMINISTRATOR,), order=99)

        # After every app's migrations: grant the permissions that exist by then.
        post_migrate.connect(sync_role_permissions, dispatch_uid="accounts.sync_roles")
