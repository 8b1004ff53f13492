"""The roles of architecture.md (and the veterinary clinic), as groups with permissions.

A role is a Django group. Its permissions are declared here by app label pattern, so
this module imports no app of ours; ``accounts`` connects ``sync_role_permissions`` to
``post_migrate``, so it runs after every migrate and grants whatever permissions exist by
then.
"""

from django.db.models import Q

CLERK = "clerk"
OFFICER = "officer"
ADMINISTRATOR = "administrator"
RESIDENT = "resident"
# A veterinary clinic's staff: sends rabies certificates, sees only
# what its clinic submitted and the animals those submissions matched (clinics app).
VETERINARIAN = "veterinarian"

STAFF_ROLES = (CLERK, OFFICER, ADMINISTRATOR)
ALL_ROLES = (*STAFF_ROLES, RESIDENT, VETERINARIAN)

ROLE_LABELS = {
    CLERK: "Clerk",
    OFFICER: "Animal control officer",
    ADMINISTRATOR: "Administrator",
    RESIDENT: "Resident",
    VETERINARIAN: "Veterinary clinic",
}

# "app_label.*" grants every permission of that app; "app_label.view_*" only viewing.
ROLE_PERMISSIONS = {
    ADMINISTRATOR: ["*"],
    CLERK: [
        "licensing.*",
        "notices.*",
        "ordinance.view_*",
        "impound.view_*",
        "rabies.view_*",
        "dangerous_dogs.view_*",
        "complaints.*",  # the clerk takes complaints at the counter
        "citations.*",  # a citation written on paper, its status (REC-14)
        "permits.*",
    ],
    OFFICER: [
        "impound.*",
        "rabies.*",
        "dangerous_dogs.*",
        "complaints.*",
        "citations.*",
        "notices.*",
        "licensing.view_*",
        "licensing.add_owner",
        "licensing.change_owner",
        "licensing.add_animal",
        "licensing.change_animal",
        "licensing.add_rabiesvaccination",
        "ordinance.view_*",
        "permits.view_*",
    ],
    RESIDENT: [],
    VETERINARIAN: [],  # clinics views check the clinic, not model permissions
}


def _permission_filter(patterns):
    query = Q(pk__in=[])
    for pattern in patterns:
        if pattern == "*":
            return Q()
        app_label, codename = pattern.split(".", 1)
        if codename == "*":
            query |= Q(content_type__app_label=app_label)
        elif codename.endswith("*"):
            query |= Q(content_type__app_label=app_label, codename__startswith=codename[:-1])
        else:
            query |= Q(content_type__app_label=app_label, codename=codename)
    return query


def ensure_groups(group_model):
    for role in ALL_ROLES:
        group_model.objects.get_or_create(name=role)


def sync_role_permissions(app_config=None, **kwargs):
    """post_migrate handler: make each role's group hold exactly its declared permissions.

    ``post_migrate`` is sent once per app with models, each app's permissions created on
    its own signal; the groups are set on the last app's, when every permission exists
    (once per migrate or flush, not once per app: a flush follows each browser test)."""
    from django.apps import apps
    from django.contrib.auth.models import Group, Permission

    with_models = [config for config in apps.get_app_configs() if config.models_module]
    if app_config is not None and with_models and app_config is not with_models[-1]:
        return
    ensure_groups(Group)
    for role, patterns in ROLE_PERMISSIONS.items():
        group = Group.objects.get(name=role)
        group.permissions.set(Permission.objects.filter(_permission_filter(patterns)))
