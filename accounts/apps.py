from django.apps import AppConfig
from django.db.models.signals import post_migrate


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from django.utils.translation import gettext_lazy as _

        from base import nav
        from base.roles import ADMINISTRATOR, sync_role_permissions

        # The Django admin, for administrators only, last in the menu.
        nav.register(_("Admin site"), "admin:index", roles=(ADMINISTRATOR,), order=99)

        from django.contrib.auth.models import Group
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from ordinance.models import Jurisdiction

        from .models import User, access_version_bump, forget_membership, forget_user

        # What a user may do and see is cached (models.py): these writes move it on.
        for through in (User.groups.through, User.jurisdictions.through):
            m2m_changed.connect(forget_membership, sender=through, dispatch_uid=str(through))
        post_save.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user_s")
        post_delete.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user_d")
        for model in (Group, Jurisdiction):
            post_save.connect(access_version_bump, sender=model, dispatch_uid=f"{model}_s")
            post_delete.connect(access_version_bump, sender=model, dispatch_uid=f"{model}_d")

        # After a migrate (or flush), once every app's permissions exist: grant them.
        post_migrate.connect(sync_role_permissions, dispatch_uid="accounts.sync_roles")
