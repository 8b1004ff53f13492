"""Lost-pet reports stand on the case kernel: its ``status_changed_at`` (may be empty)
replaces the report's own (required); every report keeps the time it was set."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('impound', '0007_sterilization_kernel'),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicallostreport',
            name='status_changed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='status changed at'),
        ),
        migrations.AlterField(
            model_name='lostreport',
            name='status_changed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='status changed at'),
        ),
    ]
