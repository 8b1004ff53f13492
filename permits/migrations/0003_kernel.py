"""Permits stand on the case kernel: their numbers move to the kernel's one series table
(series "permit-<kind>", of the permit's year), and a status change records when it was
made."""

from django.db import migrations, models


def copy_series(apps, schema_editor):
    old = apps.get_model("permits", "PermitSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in old.objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series=f"permit-{row.kind}",
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    old = apps.get_model("permits", "PermitSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in new.objects.filter(series__startswith="permit-"):
        old.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            kind=row.series.removeprefix("permit-"),
            year=row.year,
            defaults={"next_number": row.next_number},
        )


def _status_changed_at():
    return models.DateTimeField(blank=True, null=True, verbose_name="status changed at")


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0002_wild_exemptions_premises"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.AddField("horsepermit", "status_changed_at", _status_changed_at()),
        migrations.AddField("historicalhorsepermit", "status_changed_at", _status_changed_at()),
        migrations.AddField("temporarypermit", "status_changed_at", _status_changed_at()),
        migrations.AddField("historicaltemporarypermit", "status_changed_at", _status_changed_at()),
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="PermitSeries"),
    ]
