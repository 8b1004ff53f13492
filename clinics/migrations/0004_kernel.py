"""Clinics' certificates and consigned tags stand on the case kernel: a status change
records when it was made."""

from django.db import migrations, models


def _status_changed_at():
    return models.DateTimeField(blank=True, null=True, verbose_name="status changed at")


class Migration(migrations.Migration):
    dependencies = [
        ("clinics", "0003_consignment"),
        ("kernel", "0001_initial"),
    ]

    operations = [
        migrations.AddField("certificatesubmission", "status_changed_at", _status_changed_at()),
        migrations.AddField(
            "historicalcertificatesubmission", "status_changed_at", _status_changed_at()
        ),
        migrations.AddField("consignedtag", "status_changed_at", _status_changed_at()),
        migrations.AddField("historicalconsignedtag", "status_changed_at", _status_changed_at()),
    ]
