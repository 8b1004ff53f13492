"""The ordinance's own words: licence -> license, cheque -> check, colour -> color.

Tables, columns, constraints and the index are renamed in place, so no row is lost. The
data that spells the words as codes moves with them: the payment method "cheque", the
Event action codes, the issued documents' kind and template names (their files, hashes,
snapshots and numbers are left exactly as issued), the permission codenames, and the
North Branch application requirement "colour" (NB Sec. 6-61).
"""

from django.db import migrations, models
from django.db.models import Q, Value
from django.db.models.functions import Replace

OLD_WORDS = (("licence", "license"), ("cheque", "check"), ("colour", "color"))


def _replace_in(queryset, field):
    for old, new in OLD_WORDS:
        queryset.filter(**{f"{field}__contains": old}).update(
            **{field: Replace(field, Value(old), Value(new))})


def _say_it_in_the_ordinances_words(apps, schema_editor):
    for name in ("Receipt", "HistoricalReceipt"):
        apps.get_model("licensing", name).objects.filter(method="cheque").update(method="check")
    _replace_in(apps.get_model("ordinance", "Event").objects.all(), "action")
    document = apps.get_model("notices", "IssuedDocument").objects.all()
    _replace_in(document, "kind")
    _replace_in(document, "template")
    permission = apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="licensing")
    _replace_in(permission, "codename")
    for row in apps.get_model("ordinance", "RuleValue").objects.filter(
            key="application_requires"):
        if isinstance(row.value, list) and "colour" in row.value:
            row.value = ["color" if item == "colour" else item for item in row.value]
            row.save(update_fields=["value"])


def _back_to_the_old_words(apps, schema_editor):
    for name in ("Receipt", "HistoricalReceipt"):
        apps.get_model("licensing", name).objects.filter(method="check").update(method="cheque")
    for model, field in (("ordinance.Event", "action"), ("notices.IssuedDocument", "kind"),
                         ("notices.IssuedDocument", "template")):
        queryset = apps.get_model(*model.split(".")).objects.all()
        for old, new in OLD_WORDS:
            queryset.filter(**{f"{field}__contains": new}).update(
                **{field: Replace(field, Value(new), Value(old))})
    permission = apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="licensing", codename__contains="license")
    permission.update(codename=Replace("codename", Value("license"), Value("licence")))
    for row in apps.get_model("ordinance", "RuleValue").objects.filter(
            key="application_requires"):
        if isinstance(row.value, list) and "color" in row.value:
            row.value = ["colour" if item == "color" else item for item in row.value]
            row.save(update_fields=["value"])


class Migration(migrations.Migration):

    dependencies = [
        ("licensing", "0004_kennel_became_subject_on"),
        ("ordinance", "0002_rule_values_fees_closed_days"),
        ("notices", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        # Constraints whose names or fields carry the old word come off first, back on last.
        migrations.RemoveConstraint(model_name="kennelanimal", name="kennel_animal_unique"),
        migrations.RemoveConstraint(model_name="tag", name="one_issued_tag_per_licence"),
        migrations.RemoveConstraint(model_name="tag", name="available_tag_has_no_licence"),
        migrations.RemoveConstraint(model_name="licence", name="licence_number_unique_per_city"),
        migrations.RemoveConstraint(model_name="licence",
                                    name="one_active_licence_per_animal_term"),
        migrations.RemoveConstraint(model_name="licenceseries", name="licence_series_unique"),
        migrations.RenameModel("Licence", "License"),
        migrations.RenameModel("HistoricalLicence", "HistoricalLicense"),
        migrations.RenameModel("LicenceSeries", "LicenseSeries"),
        migrations.RenameModel("LicenceExemption", "LicenseExemption"),
        migrations.RenameModel("HistoricalLicenceExemption", "HistoricalLicenseExemption"),
        migrations.RenameModel("KennelLicence", "KennelLicense"),
        migrations.RenameModel("HistoricalKennelLicence", "HistoricalKennelLicense"),
        migrations.RenameIndex(model_name="license", new_name="license_expiry_idx",
                               old_name="licence_expiry_idx"),
        migrations.RenameField("tag", "licence", "license"),
        migrations.RenameField("historicaltag", "licence", "license"),
        migrations.RenameField("kenneldecision", "kennel_licence", "kennel_license"),
        migrations.RenameField("historicalkenneldecision", "kennel_licence", "kennel_license"),
        migrations.RenameField("kennelanimal", "kennel_licence", "kennel_license"),
        migrations.RenameField("historicalkennelanimal", "kennel_licence", "kennel_license"),
        migrations.RenameField("animal", "colour", "color"),
        migrations.RenameField("historicalanimal", "colour", "color"),
        migrations.AddConstraint(
            model_name="kennelanimal",
            constraint=models.UniqueConstraint(fields=("kennel_license", "animal"),
                                               name="kennel_animal_unique")),
        migrations.AddConstraint(
            model_name="tag",
            constraint=models.UniqueConstraint(condition=Q(status="issued"),
                                               fields=("license",),
                                               name="one_issued_tag_per_license")),
        migrations.AddConstraint(
            model_name="tag",
            constraint=models.CheckConstraint(
                condition=Q(status="available", license__isnull=True) | ~Q(status="available"),
                name="available_tag_has_no_license")),
        migrations.AddConstraint(
            model_name="license",
            constraint=models.UniqueConstraint(fields=("jurisdiction", "number"),
                                               name="license_number_unique_per_city")),
        migrations.AddConstraint(
            model_name="license",
            constraint=models.UniqueConstraint(condition=Q(status="active"),
                                               fields=("animal", "term_start"),
                                               name="one_active_license_per_animal_term")),
        migrations.AddConstraint(
            model_name="licenseseries",
            constraint=models.UniqueConstraint(fields=("jurisdiction", "kind", "year"),
                                               name="license_series_unique")),
        migrations.RunPython(_say_it_in_the_ordinances_words, _back_to_the_old_words),
    ]
