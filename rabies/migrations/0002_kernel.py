"""Rabies cases stand on the case kernel: the numbers of bite reports, quarantines and
exposure cases move to the kernel's one series table (series "rabies-BR", "rabies-Q",
"rabies-EX", by year)."""

from django.db import migrations

SERIES = "rabies-"


def copy_series(apps, schema_editor):
    old = apps.get_model("rabies", "RabiesSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in old.objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series=SERIES + row.prefix,
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    old = apps.get_model("rabies", "RabiesSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in new.objects.filter(series__startswith=SERIES):
        old.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            prefix=row.series.removeprefix(SERIES),
            year=row.year,
            defaults={"next_number": row.next_number},
        )


class Migration(migrations.Migration):
    dependencies = [
        ("rabies", "0001_initial"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="RabiesSeries"),
    ]
