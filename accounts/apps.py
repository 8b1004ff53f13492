from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from base.roles import sync_role_permissions

        # After every app's migrations: grant the permissions that exist by then.
        post_migrate.connect(sync_role_permissions, dispatch_uid="accounts.sync_roles")
