from django.db import migrations

ROLES = ("clerk", "officer", "administrator", "resident")


def create_groups(apps, schema_editor):
    # Permissions are granted by base.roles.sync_role_permissions after every migrate,
    # once every app's permissions exist.
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_initial"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(create_groups, migrations.RunPython.noop)]
