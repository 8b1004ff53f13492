"""Licenses sold at the clinic: consignment blocks of the city's tags,
each tag's holding, returns and losses, and the clinic's sales. The database refuses to
delete them or rewrite what was issued (``base.db_guards``, as licensing 0008 does for
receipts and tags): a block's range, a sale's license and receipt, a reconciliation.

Depends on ``0001_initial``: another change adds ``0002``; the merge re-points this one.
"""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models

from base.db_guards import Guard, install

GUARDS = (
    Guard(
        "clinics_consignmentblock",
        (
            "clinic_id",
            "jurisdiction_id",
            "year",
            "first_number",
            "last_number",
            "issued_by_id",
            "issued_at",
        ),
        label="Consignment block",
    ),
    Guard("clinics_consignedtag", ("block_id", "tag_id"), label="Consigned tag"),
    Guard(
        "clinics_tagreconciliation",
        ("block_id", "kind", "first_number", "last_number", "recorded_by_id", "recorded_at"),
        label="Tag reconciliation",
    ),
    Guard(
        "clinics_clinicsale",
        (
            "clinic_id",
            "jurisdiction_id",
            "holding_id",
            "license_id",
            "receipt_id",
            "certificate_id",
            "sold_by_id",
            "sold_at",
        ),
        label="Clinic sale",
    ),
)


class Migration(migrations.Migration):

    dependencies = [
        ('clinics', '0002_unlicensed_followup'),
        ('licensing', '0016_clinic_consignment'),
        ('ordinance', '0005_jurisdiction_next_term_sales_policy'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ConsignmentBlock',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('year', models.PositiveSmallIntegerField(verbose_name='year stamped')),
                ('first_number', models.PositiveIntegerField(verbose_name='first tag number')),
                ('last_number', models.PositiveIntegerField(verbose_name='last tag number')),
                ('issued_at', models.DateTimeField(verbose_name='issued at')),
                ('note', models.CharField(blank=True, max_length=200, verbose_name='note')),
                ('clinic', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='consignments', to='clinics.clinic')),
                ('issued_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('jurisdiction', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ordinance.jurisdiction')),
            ],
            options={
                'ordering': ['-issued_at', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='ConsignedTag',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('held', 'Unsold, at the clinic'), ('sold', 'Sold'), ('returned', 'Returned to the city'), ('lost', 'Lost')], default='held', max_length=10, verbose_name='status')),
                ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                ('tag', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='consignments', to='licensing.tag')),
                ('block', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='holdings', to='clinics.consignmentblock')),
            ],
            options={
                'ordering': ['pk'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalClinicSale',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('sold_at', models.DateTimeField(verbose_name='sold at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('certificate', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.certificatesubmission')),
                ('clinic', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.clinic')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('holding', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.consignedtag')),
                ('jurisdiction', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='ordinance.jurisdiction')),
                ('license', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='licensing.license')),
                ('receipt', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='licensing.receipt')),
                ('sold_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical clinic sale',
                'verbose_name_plural': 'historical clinic sales',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalConsignmentBlock',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('year', models.PositiveSmallIntegerField(verbose_name='year stamped')),
                ('first_number', models.PositiveIntegerField(verbose_name='first tag number')),
                ('last_number', models.PositiveIntegerField(verbose_name='last tag number')),
                ('issued_at', models.DateTimeField(verbose_name='issued at')),
                ('note', models.CharField(blank=True, max_length=200, verbose_name='note')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('clinic', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.clinic')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('issued_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('jurisdiction', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='ordinance.jurisdiction')),
            ],
            options={
                'verbose_name': 'historical consignment block',
                'verbose_name_plural': 'historical consignment blocks',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalTagReconciliation',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('kind', models.CharField(choices=[('returned', 'Returned unsold'), ('lost', 'Lost before sale')], max_length=10, verbose_name='what happened')),
                ('first_number', models.PositiveIntegerField(verbose_name='first tag number')),
                ('last_number', models.PositiveIntegerField(verbose_name='last tag number')),
                ('reason', models.CharField(max_length=200, verbose_name='why')),
                ('recorded_at', models.DateTimeField(verbose_name='recorded at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('block', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.consignmentblock')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('recorded_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical tag reconciliation',
                'verbose_name_plural': 'historical tag reconciliations',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='TagReconciliation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('returned', 'Returned unsold'), ('lost', 'Lost before sale')], max_length=10, verbose_name='what happened')),
                ('first_number', models.PositiveIntegerField(verbose_name='first tag number')),
                ('last_number', models.PositiveIntegerField(verbose_name='last tag number')),
                ('reason', models.CharField(max_length=200, verbose_name='why')),
                ('recorded_at', models.DateTimeField(verbose_name='recorded at')),
                ('block', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='reconciliations', to='clinics.consignmentblock')),
                ('recorded_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-recorded_at', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalConsignedTag',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('status', models.CharField(choices=[('held', 'Unsold, at the clinic'), ('sold', 'Sold'), ('returned', 'Returned to the city'), ('lost', 'Lost')], default='held', max_length=10, verbose_name='status')),
                ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('block', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.consignmentblock')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tag', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='licensing.tag')),
                ('reconciliation', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clinics.tagreconciliation')),
            ],
            options={
                'verbose_name': 'historical consigned tag',
                'verbose_name_plural': 'historical consigned tags',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.AddField(
            model_name='consignedtag',
            name='reconciliation',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='holdings', to='clinics.tagreconciliation'),
        ),
        migrations.CreateModel(
            name='ClinicSale',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sold_at', models.DateTimeField(verbose_name='sold at')),
                ('certificate', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sales', to='clinics.certificatesubmission')),
                ('clinic', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='sales', to='clinics.clinic')),
                ('jurisdiction', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ordinance.jurisdiction')),
                ('license', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='clinic_sale', to='licensing.license')),
                ('receipt', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='clinic_sale', to='licensing.receipt')),
                ('sold_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('holding', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='sale', to='clinics.consignedtag')),
            ],
            options={
                'ordering': ['-sold_at', '-pk'],
                'indexes': [models.Index(fields=['clinic', 'jurisdiction', 'sold_at'], name='clinic_sale_month_idx')],
            },
        ),
        migrations.AddIndex(
            model_name='consignmentblock',
            index=models.Index(fields=['clinic', 'jurisdiction', 'issued_at'], name='consignment_idx'),
        ),
        migrations.AddConstraint(
            model_name='consignmentblock',
            constraint=models.CheckConstraint(condition=models.Q(('last_number__gte', models.F('first_number'))), name='consignment_range_ordered'),
        ),
        migrations.AddConstraint(
            model_name='tagreconciliation',
            constraint=models.CheckConstraint(condition=models.Q(('last_number__gte', models.F('first_number'))), name='reconciliation_range_ordered'),
        ),
        migrations.AddIndex(
            model_name='consignedtag',
            index=models.Index(fields=['block', 'status'], name='consigned_tag_status_idx'),
        ),
        migrations.AddConstraint(
            model_name='consignedtag',
            constraint=models.UniqueConstraint(fields=('block', 'tag'), name='consigned_tag_once_per_block'),
        ),
        migrations.AddConstraint(
            model_name='consignedtag',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'held')), fields=('tag',), name='consigned_tag_one_holder'),
        ),
        migrations.RunPython(*install(*GUARDS)),
    ]
