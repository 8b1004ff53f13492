"""The search box's narrow copy of each owner (licensing.models.search).

One row per owner (city, lower-case sort keys, one search text: the city's id written in
punctuation, "|", the upper-cased names and address), filled here
for the owners that exist by one INSERT ... SELECT, and on PostgreSQL a trigram index on
the text: a common word then reads these narrow rows instead of the owner table's.
"""

import django.db.models.deletion
from django.db import migrations, models

# The city's id with its digits written as punctuation (licensing.models.search).
CITY_CODE = "CAST(jurisdiction_id AS TEXT)"
for _digit, _mark in zip("0123456789", "!#$&()*+,-", strict=True):
    CITY_CODE = f"REPLACE({CITY_CODE}, '{_digit}', '{_mark}')"

FILL = (
    "INSERT INTO licensing_ownersearch "
    "(owner_id, jurisdiction_id, sort_last, sort_first, sort_org, text) "
    "SELECT id, jurisdiction_id, LOWER(last_name), LOWER(first_name), "
    f"LOWER(organization_name), {CITY_CODE} || '|' || "
    "UPPER(first_name || ' ' || last_name || ' ' || organization_name || ' ' || address_line) "
    "FROM licensing_owner "
    "ORDER BY jurisdiction_id, LOWER(last_name), LOWER(first_name), "
    "LOWER(organization_name), id"
)


def fill(apps, schema_editor):
    schema_editor.execute(FILL)


def empty(apps, schema_editor):
    schema_editor.execute("DELETE FROM licensing_ownersearch")


def create_trigram_index(apps, schema_editor):
    # fastupdate off: a bulk refresh would otherwise leave its rows in the index's pending
    # list, which every search then reads whole (7 ms instead of 0.2 after 5,000 rows)
    # until a VACUUM; writing them straight into the index costs about 0.1 ms a row.
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        "CREATE INDEX IF NOT EXISTS owner_search_text_trgm ON licensing_ownersearch "
        "USING gin (text gin_trgm_ops) WITH (fastupdate = off)"
    )
    # A finer sample of the text, for the planner's guess of how common a word is, which
    # decides between the trigram index and the walk in name order (0.1% a row, not 1%).
    schema_editor.execute("ALTER TABLE licensing_ownersearch ALTER COLUMN text SET STATISTICS 1000")
    schema_editor.execute("ANALYZE licensing_ownersearch")


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS owner_search_text_trgm")


class Migration(migrations.Migration):
    dependencies = [
        ("licensing", "0016_clinic_consignment"),
    ]

    operations = [
        migrations.CreateModel(
            name="OwnerSearch",
            fields=[
                (
                    "owner",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="search_row",
                        serialize=False,
                        to="licensing.owner",
                    ),
                ),
                ("sort_last", models.CharField(max_length=80)),
                ("sort_first", models.CharField(max_length=80)),
                ("sort_org", models.CharField(max_length=160)),
                ("text", models.TextField()),
                (
                    "jurisdiction",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="ordinance.jurisdiction",
                    ),
                ),
            ],
            options={
                "default_permissions": (),
            },
        ),
        migrations.AddIndex(
            model_name="ownersearch",
            index=models.Index(
                fields=["jurisdiction", "sort_last", "sort_first", "sort_org", "owner"],
                name="owner_search_city_name_idx",
            ),
        ),
        migrations.RunPython(fill, empty),
        migrations.RunPython(create_trigram_index, drop_trigram_index),
    ]
