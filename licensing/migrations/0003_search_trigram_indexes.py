"""Trigram indexes for the clerk's search box on PostgreSQL.

Django's ``icontains`` becomes ``UPPER(col::text) LIKE UPPER('%word%')``; a GIN index
with ``gin_trgm_ops`` on that same expression lets PostgreSQL answer it without scanning
every owner and animal (200,000 animals: a sequential scan per keystroke otherwise).
SQLite has no such index type; there the search scans, which is fine at a small city's size.
"""

from django.db import migrations

INDEXES = [
    ("owner_first_name_trgm", "licensing_owner", "first_name"),
    ("owner_last_name_trgm", "licensing_owner", "last_name"),
    ("owner_org_name_trgm", "licensing_owner", "organization_name"),
    ("owner_address_trgm", "licensing_owner", "address_line"),
    ("animal_name_trgm", "licensing_animal", "name"),
]


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS {name} ON {table} '
            f'USING gin ((UPPER({column}::text)) gin_trgm_ops)'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {name}")


class Migration(migrations.Migration):
    dependencies = [("licensing", "0002_licences_tags_receipts_kennels")]

    operations = [migrations.RunPython(create, drop)]
