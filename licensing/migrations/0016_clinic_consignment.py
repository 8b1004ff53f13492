"""Licenses sold at the clinic: a tag may be at a clinic ("consigned":
out of the counter's stock, same number and year, REC-02), and a receipt's money may
have been collected by the clinic ("clinic"; no card data is kept)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('licensing', '0015_animal_kind'),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicalreceipt',
            name='method',
            field=models.CharField(choices=[('cash', 'Cash'), ('check', 'Check'), ('card', 'Card'), ('clinic', 'Clinic-collected')], max_length=8, verbose_name='payment method'),
        ),
        migrations.AlterField(
            model_name='historicaltag',
            name='status',
            field=models.CharField(choices=[('available', 'Available'), ('consigned', 'At a clinic'), ('issued', 'Issued'), ('lost', 'Lost'), ('void', 'Void')], default='available', max_length=10, verbose_name='status'),
        ),
        migrations.AlterField(
            model_name='receipt',
            name='method',
            field=models.CharField(choices=[('cash', 'Cash'), ('check', 'Check'), ('card', 'Card'), ('clinic', 'Clinic-collected')], max_length=8, verbose_name='payment method'),
        ),
        migrations.AlterField(
            model_name='tag',
            name='status',
            field=models.CharField(choices=[('available', 'Available'), ('consigned', 'At a clinic'), ('issued', 'Issued'), ('lost', 'Lost'), ('void', 'Void')], default='available', max_length=10, verbose_name='status'),
        ),
    ]
