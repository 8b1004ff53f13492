"""Indexes for the search box's separate lookups.

Owner.phone_digits (the phone's digits only) is filled for existing owners and, on
PostgreSQL, gets a trigram index for "digits anywhere in the number"; the rabies-tag
lookup gets an UPPER() index, tag numbers one of their own. Names and addresses keep
the trigram indexes of 0003. SQLite has no trigram index: there the search scans.
"""

import re

import django.db.models.functions.text
from django.conf import settings
from django.db import migrations, models


def fill_phone_digits(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "UPDATE licensing_owner SET phone_digits = regexp_replace(phone, '\\D', '', 'g')"
        )
        return
    Owner = apps.get_model("licensing", "Owner")
    changed = []
    for owner in Owner.objects.only("pk", "phone").iterator(chunk_size=2000):
        owner.phone_digits = re.sub(r"\D", "", owner.phone or "")
        changed.append(owner)
    Owner.objects.bulk_update(changed, ["phone_digits"], batch_size=500)


def create_phone_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS owner_phone_digits_trgm ON licensing_owner "
        "USING gin (phone_digits gin_trgm_ops)"
    )


def drop_phone_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS owner_phone_digits_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("licensing", "0013_owner_merged_into"),
        ("ordinance", "0005_jurisdiction_next_term_sales_policy"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalowner",
            name="phone_digits",
            field=models.CharField(blank=True, editable=False, max_length=30),
        ),
        migrations.AddField(
            model_name="owner",
            name="phone_digits",
            field=models.CharField(blank=True, editable=False, max_length=30),
        ),
        migrations.AddIndex(
            model_name="rabiesvaccination",
            index=models.Index(
                django.db.models.functions.text.Upper("rabies_tag_number"),
                name="vacc_rabies_tag_upper_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="tag",
            index=models.Index(fields=["number", "year"], name="tag_number_idx"),
        ),
        migrations.RunPython(fill_phone_digits, migrations.RunPython.noop),
        migrations.RunPython(create_phone_trigram_index, drop_phone_trigram_index),
    ]
