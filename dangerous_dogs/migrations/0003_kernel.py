"""Dangerous-dog case numbers move to the kernel's one series table (series
"dangerous-dog", by year)."""

from django.db import migrations


def copy_series(apps, schema_editor):
    old = apps.get_model("dangerous_dogs", "CaseSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in old.objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series="dangerous-dog",
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    old = apps.get_model("dangerous_dogs", "CaseSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in new.objects.filter(series="dangerous-dog"):
        old.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            year=row.year,
            defaults={"next_number": row.next_number},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("dangerous_dogs", "0002_d_sterilization_overdue"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="CaseSeries"),
    ]
