"""The lost-pet rows of tests/test_every_page.py's page table.

The world's resident (Rita) reported her dog Biscuit lost the day before the world's
North Branch impound case took her in; the report carries Biscuit's microchip, so the
case is its likely match (decisive). The report has a photo. Her pages are hers only
(another resident: 404, tests/impound/test_lost_views.py); the staff list and the photo
are for North Branch's staff (Glencoe's: 404)."""

from dataclasses import dataclass
from datetime import timedelta


@dataclass
class LostWorld:
    report: object


def build_lost_world(*, nb, resident, animal, now) -> LostWorld:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from impound.services.lost import lost_report_file
    from tests.upload_files import png_bytes

    report = lost_report_file(
        reporter=resident,
        jurisdiction=nb,
        now=now,
        species="dog",
        breed=animal.breed,
        color=animal.color,
        sex=animal.sex,
        approximate_age_months=46,
        name=animal.name,
        microchip=animal.microchip,
        lost_on=now.date() - timedelta(days=1),
        lost_where="Main Street",
        contact_phone="651-555-0147",
        photo=SimpleUploadedFile("lost.png", png_bytes(), content_type="image/png"),
    )
    assert report.matches.exists(), "the world's impound case matches by microchip"
    return LostWorld(report=report)


LOST_PAGES = {
    "impound:lost_reports": (lambda w: [], {}),
    "impound:lost_report_photo": (lambda w: [w.lost.report.pk], {}),
    "impound:lost_report_list": (lambda w: [], {}),
    "impound:lost_report_new": (lambda w: [], {}),
    "impound:lost_report_detail": (lambda w: [w.lost.report.pk], {}),
    "impound:lost_report_renew": (lambda w: [w.lost.report.pk], {"*": 405}),
    "impound:lost_report_close": (lambda w: [w.lost.report.pk], {}),
}
