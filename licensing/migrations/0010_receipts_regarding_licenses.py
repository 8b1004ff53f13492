"""Receipt.regarding: the dog licenses each receipt concerns.

Filled for the receipts issued before it: the license a receipt issued (License.receipt),
the license of a transfer or a duplicate tag (the receipt number its event recorded), and
a void beside the receipt it voids.
"""

from django.db import migrations, models


def fill(apps, schema_editor):
    License = apps.get_model("licensing", "License")
    Receipt = apps.get_model("licensing", "Receipt")
    Event = apps.get_model("ordinance", "Event")
    ContentType = apps.get_model("contenttypes", "ContentType")
    Link = Receipt.regarding.through
    links = set(License.objects.values_list("receipt_id", "pk"))
    license_type = ContentType.objects.filter(app_label="licensing", model="license").first()
    if license_type is not None:
        events = Event.objects.filter(
            subject_type=license_type,
            action__in=["licensing.license.transferred", "licensing.tag.duplicate_issued"],
        ).values_list("subject_id", "data")
        city_of = dict(License.objects.values_list("pk", "jurisdiction_id"))
        wanted = {}
        for subject_id, data in events:
            license_id = int(subject_id)
            number = (data or {}).get("receipt")
            if number is not None and license_id in city_of:
                wanted[(city_of[license_id], number)] = license_id
        if wanted:
            cities = {city for city, _ in wanted}
            for pk, city, number in Receipt.objects.filter(jurisdiction_id__in=cities).values_list(
                "pk", "jurisdiction_id", "number"
            ):
                if (city, number) in wanted:
                    links.add((pk, wanted[(city, number)]))
    by_receipt = {}
    for receipt_id, license_id in links:
        by_receipt.setdefault(receipt_id, set()).add(license_id)
    for void_id, original_id in Receipt.objects.filter(voids__isnull=False).values_list(
        "pk", "voids_id"
    ):
        for license_id in by_receipt.get(original_id, ()):
            links.add((void_id, license_id))
    Link.objects.bulk_create(
        [Link(receipt_id=r, license_id=lic) for r, lic in sorted(links)], ignore_conflicts=True
    )


class Migration(migrations.Migration):
    dependencies = [
        ("licensing", "0009_cash_tendered_and_closeouts"),
        ("ordinance", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AddField(
            model_name="receipt",
            name="regarding",
            field=models.ManyToManyField(
                blank=True,
                related_name="receipts_regarding",
                to="licensing.license",
                verbose_name="licenses",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
