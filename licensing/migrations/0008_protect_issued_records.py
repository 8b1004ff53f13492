"""Receipts, their lines, licenses and tags refused DELETE and the rewriting of what was
issued, by the database itself (REC-01, LIC-06): ``objects.update()``
and raw SQL go around the models' guards and the history, a trigger does not."""

from django.db import migrations

from base.db_guards import Guard, install

GUARDS = (
    Guard(
        "licensing_receipt",
        (
            "jurisdiction_id",
            "number",
            "issued_at",
            "issued_by_id",
            "payer_id",
            "payer_name",
            "method",
            "total",
        ),
        label="Receipt",
    ),
    Guard("licensing_receiptline", ("receipt_id", "code", "amount"), label="Receipt line"),
    Guard(
        "licensing_license",
        ("jurisdiction_id", "number", "term_start", "issued_on", "issued_by_id"),
        label="License",
    ),
    Guard("licensing_tag", ("jurisdiction_id", "year", "number"), label="Tag"),
)


class Migration(migrations.Migration):
    dependencies = [("licensing", "0007_online")]

    operations = [migrations.RunPython(*install(*GUARDS))]
