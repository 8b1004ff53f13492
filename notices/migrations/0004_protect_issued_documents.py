"""Issued documents refused DELETE and the rewriting of what was issued, by the database
itself (Appendix C). The archived PDF, its checksum and size are written
once, when a deferred document is first printed (``archive_deferred_pdf``)."""

from django.db import migrations

from base.db_guards import Guard, install

GUARD = Guard(
    "notices_issueddocument",
    (
        "jurisdiction_id",
        "kind",
        "number",
        "title",
        "template",
        "snapshot",
        "issued_at",
        "issued_by_id",
    ),
    fill_once=("file", "sha256", "size"),
    allow_when="OLD.sha256 = ''",
    label="Issued document",
)


class Migration(migrations.Migration):
    dependencies = [("notices", "0003_historicalservicerecord_decision_servicerecord")]

    operations = [migrations.RunPython(*install(GUARD))]
