"""The dangerous-dog rows of tests/test_every_page.py's page table (issue 10).

Glencoe's records: the Subd. 15 proceeding exists only there (DD-29), so the other-city
check for these pages uses North Branch staff, and North Branch's classification pages
use Glencoe staff as the rest of the table does. Each part of the app adds its URL names
in its own block below; args come from the ``DDWorld`` built by ``build_dd_world``.
"""

from dataclasses import dataclass

from dangerous_dogs.models import CaseStatus, Designation


@dataclass
class DDWorld:
    case: object  # a Glencoe case declared dangerous by default, compliance running
    notice_case: object  # a Glencoe case whose notice of intent is not yet issued
    classification: object = None  # a North Branch Sec. 6-73 classification


def build_dd_world(*, nb, gl, nb_animal, gl_animal, actor, today) -> DDWorld:
    from dangerous_dogs.models import Classification
    from tests.dangerous_dogs.helpers import declared, make_case

    case = declared(gl, actor, on=today, received_on=today, animal=gl_animal)
    notice_case = make_case(gl, actor, animal=gl_animal, designation=Designation.DANGEROUS)
    assert case.status == CaseStatus.DECLARED
    classification = Classification.objects.create(
        jurisdiction=nb,
        animal=nb_animal,
        term="vicious",
        reason="Bit a mail carrier on the sidewalk.",
        classified_on=today,
        classified_by_name="Olivia Officer",
        citation="North Branch Sec. 6-73",
        recorded_by=actor,
    )
    return DDWorld(case=case, notice_case=notice_case, classification=classification)


# url name -> (args from the world (w.dd is the DDWorld), {role or "*": expected status})
DD_PAGES = {
    "dangerous_dogs:board": (lambda w: [], {}),
    "dangerous_dogs:case_detail": (lambda w: [w.dd.case.pk], {}),
    # --- investigation, notice of intent, contest, default, declaration ---
    # --- attorney review, hearing, findings, appeal ---
    # --- compliance, registration, seizure ---
    # --- owner's reports, sterilization, review, charges, summary destruction ---
    # --- North Branch classification ---
    "dangerous_dogs:classification_create": (lambda w: [w.animal.pk], {}),
    "dangerous_dogs:classification_end": (lambda w: [w.dd.classification.pk], {"*": 405}),
}

# Pages whose record is North Branch's (a classification); every other page of DD_PAGES
# with args shows a Glencoe record and is checked for 404 with North Branch staff.
NB_RECORD_PAGES: set[str] = {
    "dangerous_dogs:classification_create",
    "dangerous_dogs:classification_end",
}
