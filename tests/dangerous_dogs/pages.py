"""The dangerous-dog rows of tests/test_every_page.py's page table.

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
    # part D: an owner's report, a sterilization order, a review request, a charge and a
    # summary-destruction record on ``case``; ``gl_animal`` the Glencoe dog
    report: object = None
    order: object = None
    review: object = None
    charge: object = None
    destruction: object = None
    gl_animal: object = None


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
    return DDWorld(
        case=case,
        notice_case=notice_case,
        classification=classification,
        gl_animal=gl_animal,
        **_part_d(case, actor),
    )


def _part_d(case, actor) -> dict:
    from dangerous_dogs import models as m

    today, common = case.declared_on, {"case": case}
    return {
        "report": m.OwnerReport.objects.create(
            **common,
            kind="death",
            event_on=today,
            notified_on=today,
            citation="x",
            recorded_by=actor,
        ),
        "order": m.SterilizationOrder.objects.create(
            **common, ordered_on=today, due_on=today, due_citation="x", recorded_by=actor
        ),
        "review": m.ReviewRequest.objects.create(
            **common, requested_on=today, evidence="Training", recorded_by=actor
        ),
        "charge": m.Charge.objects.create(
            **common, charged_on=today, offence="Not muzzled", recorded_by=actor
        ),
        "destruction": m.SummaryDestruction.objects.create(
            **common,
            jurisdiction=case.jurisdiction,
            animal=case.animal,
            ground="rabies",
            facts="Rabid",
            hearing_notice_on=today,
            hearing_on=today,
            decision_maker="J. Doe",
            recorded_by=actor,
        ),
    }


# url name -> (args from the world (w.dd is the DDWorld), {role or "*": expected status})
DD_PAGES = {
    "dangerous_dogs:board": (lambda w: [], {}),
    "dangerous_dogs:case_detail": (lambda w: [w.dd.case.pk], {}),
    # --- investigation, notice of intent, contest, default, declaration ---
    "dangerous_dogs:case_open": (lambda w: [w.dd.case.animal_id], {}),
    "dangerous_dogs:notice_stage": (lambda w: [w.dd.notice_case.pk], {}),
    "dangerous_dogs:notice_issue": (lambda w: [w.dd.notice_case.pk], {"*": 405}),
    "dangerous_dogs:notice_served": (lambda w: [w.dd.notice_case.pk], {"*": 405}),
    "dangerous_dogs:contest_received": (lambda w: [w.dd.notice_case.pk], {"*": 405}),
    "dangerous_dogs:contest_late_decide": (lambda w: [w.dd.notice_case.pk], {"*": 405}),
    "dangerous_dogs:declaration_issue": (lambda w: [w.dd.notice_case.pk], {"*": 405}),
    "dangerous_dogs:declaration_received": (lambda w: [w.dd.case.pk], {"*": 405}),
    # --- attorney review, hearing, findings, appeal ---
    "dangerous_dogs:hearing": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:appeal": (lambda w: [w.dd.case.pk], {}),
    # --- compliance, registration, seizure ---
    "dangerous_dogs:compliance_proof": (lambda w: [w.dd.case.pk, "enclosure"], {}),
    "dangerous_dogs:compliance_destroyed": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:registration_issue": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:registration_renew": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:seizure_create": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:seizure_reclaim": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:seizure_notice": (lambda w: [w.dd.case.pk], {"*": 404}),  # not seized
    # --- owner's reports, sterilization, review, charges, summary destruction ---
    "dangerous_dogs:owner_report_new": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:owner_affidavit_request": (lambda w: [w.dd.report.pk], {}),
    "dangerous_dogs:owner_affidavit_upload": (lambda w: [w.dd.report.pk], {}),
    "dangerous_dogs:owner_sterilization_new": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:owner_sterilization_done": (lambda w: [w.dd.order.pk], {}),
    "dangerous_dogs:review_request_new": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:review_decide": (lambda w: [w.dd.review.pk], {}),
    "dangerous_dogs:review_charge_new": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:review_charge_decide": (lambda w: [w.dd.charge.pk], {}),
    "dangerous_dogs:review_court_order": (lambda w: [w.dd.charge.pk], {}),
    "dangerous_dogs:review_destruction_case": (lambda w: [w.dd.case.pk], {}),
    "dangerous_dogs:review_destruction_animal": (lambda w: [w.dd.gl_animal.pk], {}),
    "dangerous_dogs:review_destroyed": (lambda w: [w.dd.destruction.pk], {}),
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
