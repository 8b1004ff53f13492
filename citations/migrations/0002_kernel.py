"""Citations stand on the case kernel: their numbers move to the kernel's one series
table (series "citation", no year), and a status change records when it was made."""

from django.db import migrations, models


def copy_series(apps, schema_editor):
    old = apps.get_model("citations", "CitationSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in old.objects.all():
        new.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id,
            series="citation",
            year=0,
            defaults={"next_number": row.next_number},
        )


def copy_back(apps, schema_editor):
    old = apps.get_model("citations", "CitationSeries")
    new = apps.get_model("kernel", "NumberSeries")
    for row in new.objects.filter(series="citation", year=0):
        old.objects.update_or_create(
            jurisdiction_id=row.jurisdiction_id, defaults={"next_number": row.next_number}
        )


class Migration(migrations.Migration):
    dependencies = [
        ("citations", "0001_initial"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="citation",
            name="status_changed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="status changed at"),
        ),
        migrations.AddField(
            model_name="historicalcitation",
            name="status_changed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="status changed at"),
        ),
        migrations.RunPython(copy_series, copy_back),
        migrations.DeleteModel(name="CitationSeries"),
    ]
