"""Impound cases stand on the case kernel: they gain its attention flag (a question for
a person, with its section); their status, its time and their closing were already
the kernel's fields."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("impound", "0005_kernel_numbers"),
    ]

    operations = [
        migrations.AddField(
            model_name="historicalimpoundcase",
            name="attention",
            field=models.CharField(blank=True, max_length=300, verbose_name="needs a person"),
        ),
        migrations.AddField(
            model_name="historicalimpoundcase",
            name="attention_citation",
            field=models.CharField(blank=True, max_length=200, verbose_name="section"),
        ),
        migrations.AddField(
            model_name="historicalimpoundcase",
            name="attention_since",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="impoundcase",
            name="attention",
            field=models.CharField(blank=True, max_length=300, verbose_name="needs a person"),
        ),
        migrations.AddField(
            model_name="impoundcase",
            name="attention_citation",
            field=models.CharField(blank=True, max_length=200, verbose_name="section"),
        ),
        migrations.AddField(
            model_name="impoundcase",
            name="attention_since",
            field=models.DateField(blank=True, null=True),
        ),
    ]
