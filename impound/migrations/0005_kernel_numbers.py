"""Impound case numbers move to the kernel's one series table (series "impound", by
year): each city's next number of each year is copied, then impound's own table goes."""

from django.db import migrations


def copy_series(apps, schema_editor):
    old = apps.get_model("impound", "CaseSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in old.objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series="impound",
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    old = apps.get_model("impound", "CaseSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in new.objects.filter(series="impound"):
        old.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            year=row.year,
            defaults={"next_number": row.next_number},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("impound", "0004_lost_report_reminder"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="CaseSeries"),
    ]
