"""Receipt and license numbers move to the kernel's one series table: receipts as the
series "receipt" (no year), licenses as "license-dog" and "license-kennel" of their year;
the two series tables of licensing go."""

from django.db import migrations

RECEIPTS = "receipt"


def license_series(kind: str) -> str:
    return f"license-{kind}"


def copy_series(apps, schema_editor):
    new = apps.get_model("kernel", "NumberSeries")
    for row in apps.get_model("licensing", "ReceiptSeries").objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series=RECEIPTS,
            year=0,
            defaults={"next_number": row.next_number},
        )
    for row in apps.get_model("licensing", "LicenseSeries").objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series=license_series(row.kind),
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    new = apps.get_model("kernel", "NumberSeries")
    receipts = apps.get_model("licensing", "ReceiptSeries")
    for row in new.objects.filter(series=RECEIPTS, year=0):
        receipts.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id, defaults={"next_number": row.next_number}
        )
    licenses = apps.get_model("licensing", "LicenseSeries")
    for kind in ("dog", "kennel"):
        for row in new.objects.filter(series=license_series(kind)):
            licenses.objects.update_or_create(
                jurisdiction_id=row.jurisdiction_id,
                kind=kind,
                year=row.year,
                defaults={"next_number": row.next_number},
            )


class Migration(migrations.Migration):
    dependencies = [
        ("licensing", "0017_owner_search"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="LicenseSeries"),
        migrations.DeleteModel(name="ReceiptSeries"),
    ]
