"""Complaints stand on the case kernel: the attention flag and the closing of a case,
and when the status last changed. A complaint already closed by its outcome takes its
closing date and status time from that outcome."""

from django.db import migrations, models
from django.utils import timezone


def closed_by_outcome(apps, schema_editor):
    complaint = apps.get_model("complaints", "Complaint")
    closed = complaint.objects.filter(status="closed", outcome_at__isnull=False)
    for row in closed.only("pk", "outcome_at").iterator():
        complaint.objects.filter(pk=row.pk).update(
            closed_on=timezone.localdate(row.outcome_at), status_changed_at=row.outcome_at
        )


class Migration(migrations.Migration):
    dependencies = [
        ("complaints", "0003_care_facts"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="complaint",
            name="attention",
            field=models.CharField(blank=True, max_length=300, verbose_name="needs a person"),
        ),
        migrations.AddField(
            model_name="complaint",
            name="attention_citation",
            field=models.CharField(blank=True, max_length=200, verbose_name="section"),
        ),
        migrations.AddField(
            model_name="complaint",
            name="attention_since",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="complaint",
            name="closed_on",
            field=models.DateField(blank=True, null=True, verbose_name="closed on"),
        ),
        migrations.AddField(
            model_name="complaint",
            name="closing_note",
            field=models.CharField(blank=True, max_length=300, verbose_name="closing note"),
        ),
        migrations.AddField(
            model_name="complaint",
            name="status_changed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="status changed at"),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="attention",
            field=models.CharField(blank=True, max_length=300, verbose_name="needs a person"),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="attention_citation",
            field=models.CharField(blank=True, max_length=200, verbose_name="section"),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="attention_since",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="closed_on",
            field=models.DateField(blank=True, null=True, verbose_name="closed on"),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="closing_note",
            field=models.CharField(blank=True, max_length=300, verbose_name="closing note"),
        ),
        migrations.AddField(
            model_name="historicalcomplaint",
            name="status_changed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="status changed at"),
        ),
        migrations.RunPython(closed_by_outcome, migrations.RunPython.noop),
    ]
