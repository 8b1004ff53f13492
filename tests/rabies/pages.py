"""The rabies rows of tests/test_every_page.py's page table.

The world holds a North Branch bite report and home quarantine and a Glencoe exposure
(Subd. 22 is Glencoe's only, RAB-33). ``GL_RECORD_PAGES`` names the pages whose record
is Glencoe's, so the other-city check uses North Branch staff for them. Each part of the
app adds its URL names in its own block below; args come from the ``RabiesWorld``.
"""

from dataclasses import dataclass


@dataclass
class RabiesWorld:
    bite: object  # a North Branch bite by the world's dog, confinement ordered
    quarantine: object  # its home confinement, running
    exposure: object  # a Glencoe dog bitten by a raccoon, reported
    gl_bite: object = None  # a Glencoe bite, decision due


def build_rabies_world(*, nb, gl, nb_animal, gl_animal, actor, today) -> RabiesWorld:
    from django.core.files.base import ContentFile

    from rabies.models import BiteStatus
    from tests.rabies.helpers import make_bite, make_exposure, make_quarantine
    from tests.upload_files import pdf_bytes

    bite = make_bite(nb, actor, animal=nb_animal, status=BiteStatus.QUARANTINE)
    exposure = make_exposure(gl, actor, animal=gl_animal)
    # A file kept on the record, for the page that serves it back (rabies:record_file).
    exposure.report_file.save("report.pdf", ContentFile(pdf_bytes()))
    return RabiesWorld(
        bite=bite,
        quarantine=make_quarantine(nb, actor, bite=bite),
        exposure=exposure,
        gl_bite=make_bite(gl, actor, animal=gl_animal),
    )


RABIES_PAGES = {
    "rabies:dashboard": (lambda w: [], {}),
    "rabies:bite_detail": (lambda w: [w.rabies.bite.pk], {}),
    "rabies:quarantine_detail": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:exposure_detail": (lambda w: [w.rabies.exposure.pk], {}),
    "rabies:record_file": (lambda w: ["exposure-report", w.rabies.exposure.pk], {}),
    # bite reports:
    "rabies:bite_report": (lambda w: [], {}),
    "rabies:bite_document_request": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    "rabies:bite_document_received": (lambda w: [w.rabies.bite.pk, 1], {"*": 405}),
    "rabies:bite_decide": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    "rabies:bite_hearing_waived": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    "rabies:bite_hearing_decide": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    "rabies:bite_lab_submit": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    "rabies:bite_lab_result": (lambda w: [w.rabies.bite.pk], {"*": 405}),
    # quarantines:
    "rabies:quarantine_order": (lambda w: [w.rabies.bite.pk], {}),
    "rabies:quarantine_inspect": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_facility": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_exam": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_permission": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_report": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_release": (lambda w: [w.rabies.quarantine.pk], {}),
    "rabies:quarantine_resolve": (lambda w: [w.rabies.quarantine.pk], {"*": 405}),
    # exposures:
    "rabies:exposure_open": (lambda w: [w.gl_animal.pk], {}),
    "rabies:exposure_board_report": (lambda w: [w.rabies.exposure.pk], {}),
    "rabies:exposure_consent_form": (lambda w: [w.rabies.exposure.pk], {"*": 405}),
    **{
        f"rabies:exposure_{step}": (lambda w: [w.rabies.exposure.pk], {})
        for step in (
            "board_sent",
            "revaccinate",
            "consent",
            "determine",
            "dispose",
            "prerelease",
            "release_report",
            "release",
            "noncompliance",
            "hearing_waive",
            "hearing_decide",
        )
    },
    # part D (vaccinations):
    "rabies:vaccinations_overdue": (lambda w: [], {}),
}

# Pages whose record in the world is Glencoe's.
GL_RECORD_PAGES = {"rabies:exposure_detail", "rabies:record_file"}
# Exposures: every exposure page shows a Glencoe record (Subd. 22, RAB-33).
GL_RECORD_PAGES |= {name for name in RABIES_PAGES if name.startswith("rabies:exposure_")}
