"""Sterilization agreements stand on the case kernel: a status change records when it
was made."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('impound', '0006_case_kernel'),
    ]

    operations = [
        migrations.AddField(
            model_name='historicalsterilizationagreement',
            name='status_changed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='status changed at'),
        ),
        migrations.AddField(
            model_name='sterilizationagreement',
            name='status_changed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='status changed at'),
        ),
    ]
