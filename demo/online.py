"""Demo of residents online: the demo resident has renewed one dog online
with a certificate upload (waiting in the clerk's "Online" queue) and reported a lost
tag for another. Made through the services, as the resident would; loaded once.
"""

from collections import Counter
from datetime import datetime

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from licensing.models import Animal, AnimalStatus, OnlineApplication, ReportedChange
from licensing.services.applications import application_submit
from licensing.services.changes import change_report
from ordinance.refusals import Refused

from .scene import scene_days

# A one-page PDF as a scanner would save it (the certificate the resident uploaded).
CERTIFICATE = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def fill_demo_online(jurisdictions, *, users: dict, now: datetime) -> Counter:
    made = Counter()
    resident = users.get("resident")
    if resident is None:
        return made
    today = timezone.localdate(now)
    dogs = list(
        Animal.objects.filter(owner__user=resident, species="dog", status=AnimalStatus.ALIVE)
        .select_related("owner", "jurisdiction")
        .order_by("pk")
    )
    for dog in dogs:
        city = dog.jurisdiction.slug
        if OnlineApplication.objects.filter(submitted_by=resident).exists():
            break
        try:
            application_submit(
                animal=dog,
                actor=resident,
                on=today,
                now=now,
                vaccinated_on=today - scene_days(12),
                duration_years=3,
                veterinarian_name="Dr. Ada Lind",
                veterinarian_license="MN-4411",
                clinic_name="Lakes Veterinary Clinic",
                rabies_tag_number="R-2026-881",
                certificate=SimpleUploadedFile(
                    "certificate.pdf", CERTIFICATE, content_type="application/pdf"
                ),
            )
            made[city] += 1
        except Refused:
            continue  # the counter would refuse it too: try the next dog
    for dog in dogs:
        if ReportedChange.objects.filter(submitted_by=resident).exists():
            break
        if OnlineApplication.objects.filter(animal=dog).exists():
            continue
        try:
            change_report(
                animal=dog,
                kind="lost_tag",
                happened_on=today - scene_days(2),
                details={"where": "Ecklund Park, near the ball fields"},
                user=resident,
                now=now,
            )
            made[dog.jurisdiction.slug] += 1
        except Refused:
            continue
    return made
