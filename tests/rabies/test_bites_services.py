"""Bite reports (C39, C40), requests for proof (RAB-09) and the decision other than
confinement (NB Sec. 6-96(6); GL 701 Subd. 21(C), DEF-09), through the services."""

from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from base.roles import OFFICER
from licensing.models import Species
from notices.models import Decision
from ordinance.models import Event
from ordinance.refusals import Refused
from rabies.models import (
    BiteDecision,
    BiterKind,
    BiteStatus,
    DocumentRequest,
    ExaminerHearing,
    HearingOutcome,
    LabResult,
    LabSubmission,
    ReporterKind,
    RequestedDocument,
    SalivaExposure,
    VictimKind,
)
from rabies.services.bites import (
    bite_decide,
    bite_hearing_decide,
    bite_report_record,
    decisions_offered,
    document_request_log,
    document_request_received,
)
from rabies.services.testing import lab_result_record, lab_submit
from tests.conftest import make_user
from tests.impound.helpers import PDF, owned_dog
from tests.rabies.helpers import at, make_bite, vaccinate

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]

TODAY = date(2026, 12, 7)
YESTERDAY = TODAY - timedelta(days=1)


def pdf(name="doc.pdf"):
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


def report(city, actor, **fields):
    values = {
        "jurisdiction": city,
        "actor": actor,
        "reporter_kind": ReporterKind.VICTIM,
        "reporter_name": "Dana Reyes",
        "reported_at": at(YESTERDAY, 19),
        "bitten_at": at(YESTERDAY, 17, 30),
        "bitten_where": "Sidewalk, Main St",
        "victim_name": "Dana Reyes",
        "victim_address": "12 Elm St",
        "skin_broken": True,
        "biter_kind": BiterKind.REGISTERED,
    }
    values.update(fields)
    return bite_report_record(**values)


def test_report_numbers_and_stores_the_vaccination_on_file(north_branch, officer):
    dog = owned_dog(north_branch)
    shot = vaccinate(dog, date(2026, 3, 1))
    bite = report(north_branch, officer, animal=dog.pk)
    assert bite.number == "BR-2026-0001"
    assert bite.status == BiteStatus.OPEN
    assert bite.vaccination == shot
    assert bite.vaccination_state == "current"
    assert "2026" in bite.vaccination_summary and "(" in bite.vaccination_summary
    assert bite.report_recipient == "the police department"
    assert not bite.owner_report_late and bite.owner_report_due_at is None  # not the owner
    assert report(north_branch, officer, animal=dog).number == "BR-2026-0002"
    assert Event.objects.filter(action="rabies.bite.reported").count() == 2


def test_unvaccinated_animal_is_stored_overdue(north_branch, officer):
    dog = owned_dog(north_branch)
    lapsed = vaccinate(dog, date(2024, 1, 1))
    bite = report(north_branch, officer, animal=dog)
    assert bite.vaccination_state == "overdue"
    assert bite.vaccination in (None, lapsed)  # the lapsed one on file, if any


@pytest.mark.parametrize(
    ("hours", "minutes", "late"), [(23, 59, False), (24, 0, False), (24, 1, True)]
)
def test_owner_report_late_after_24_hours(north_branch, officer, hours, minutes, late):
    bitten = at(TODAY - timedelta(days=3), 8, 0)
    bite = report(
        north_branch,
        officer,
        animal=owned_dog(north_branch),
        reporter_kind=ReporterKind.OWNER,
        bitten_at=bitten,
        reported_at=bitten + timedelta(hours=hours, minutes=minutes),
    )
    assert bite.owner_report_due_at == bitten + timedelta(hours=24)
    assert bite.owner_report_citation == "North Branch Sec. 6-96(2)"
    assert bite.owner_report_late is late
    assert bool(bite.attention) is late
    if late:
        assert bite.attention_citation == "North Branch Sec. 6-96(2)"


def test_glencoe_has_no_owner_reporting_deadline(glencoe, officer):
    bitten = at(TODAY - timedelta(days=5), 8, 0)
    bite = report(
        glencoe,
        officer,
        animal=owned_dog(glencoe),
        reporter_kind=ReporterKind.OWNER,
        bitten_at=bitten,
        reported_at=bitten + timedelta(days=3),
    )
    assert bite.owner_report_due_at is None and not bite.owner_report_late
    assert bite.attention == "" and bite.report_recipient == ""


def test_veterinarians_report_goes_to_the_council_with_a_diagnosis(north_branch, officer):
    with pytest.raises(Refused) as exc:
        report(
            north_branch,
            officer,
            animal=owned_dog(north_branch),
            reporter_kind=ReporterKind.VETERINARIAN,
        )
    assert exc.value.checks[0].field == "diagnosis"
    bite = report(
        north_branch,
        officer,
        animal=owned_dog(north_branch),
        reporter_kind=ReporterKind.VETERINARIAN,
        diagnosis="Hypersalivation, paralysis of the jaw",
    )
    assert bite.report_recipient == "the city council"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"bitten_at": at(TODAY + timedelta(days=1))}, "bitten_at"),
        ({"reported_at": at(YESTERDAY, 16)}, "reported_at"),
        ({"biter_kind": BiterKind.STRAY}, "biter_species"),
        ({"animal": None}, "animal"),
        ({"victim_name": ""}, "victim_name"),
        ({"victim_kind": VictimKind.ANIMAL}, "victim_animal"),
    ],
)
def test_bad_input_is_refused_at_the_field(north_branch, officer, fields, field):
    values = {"animal": owned_dog(north_branch).pk, **fields}
    with pytest.raises(Refused) as exc:
        report(north_branch, officer, **values)
    assert exc.value.checks[0].field == field


def test_animal_of_the_other_city_refused(north_branch, glencoe, officer):
    with pytest.raises(Refused) as exc:
        report(north_branch, officer, animal=owned_dog(glencoe).pk)
    assert exc.value.checks[0].field == "animal"


def test_wrong_city_refused(north_branch, glencoe):
    nb_only = make_user("nora", OFFICER, [north_branch])
    with pytest.raises(Refused):
        report(glencoe, nb_only, animal=owned_dog(glencoe))
    bite = make_bite(glencoe, make_user("gil", OFFICER, [glencoe]))
    with pytest.raises(Refused):
        bite_decide(bite, BiteDecision.NO_ACTION, "Not found", nb_only)


def test_raccoon_biting_a_glencoe_dog_flags_an_exposure_case(glencoe, north_branch, officer):
    victim = owned_dog(glencoe)
    bite = report(
        glencoe,
        officer,
        victim_kind=VictimKind.ANIMAL,
        victim_animal=victim.pk,
        victim_name="",
        biter_kind=BiterKind.WILD,
        biter_species="Raccoon",
    )
    assert "exposure case" in bite.attention
    assert bite.attention_citation == "Glencoe 701 Subd. 1(L)"
    # North Branch has no exposure rules (RAB-33): no flag.
    nb = report(
        north_branch,
        officer,
        victim_kind=VictimKind.ANIMAL,
        victim_animal=owned_dog(north_branch).pk,
        biter_kind=BiterKind.WILD,
        biter_species="raccoon",
    )
    assert nb.attention == ""


# --- Requests for proof (RAB-09) -----------------------------------------------------------


def test_document_request_logged_then_received(north_branch, officer):
    bite = make_bite(north_branch, officer)
    with pytest.raises(Refused) as exc:
        document_request_log(
            bite,
            actor=officer,
            kind=RequestedDocument.INSURANCE,
            why_warranted=" ",
            requested_on=TODAY,
        )
    assert exc.value.checks[0].field == "why_warranted"
    request = document_request_log(
        bite,
        actor=officer,
        kind=RequestedDocument.VACCINATION,
        why_warranted="No tag on the dog",
        requested_on=TODAY,
    )
    assert DocumentRequest.objects.get().requested_by == officer
    with pytest.raises(Refused) as exc:
        document_request_received(
            request, actor=officer, received_on=TODAY + timedelta(days=1), file=pdf()
        )
    assert exc.value.checks[0].field == "received_on"
    with pytest.raises(Refused) as exc:
        document_request_received(request, actor=officer, received_on=TODAY)
    assert exc.value.checks[0].field == "file"
    document_request_received(
        request, actor=officer, received_on=TODAY, file=pdf(), note="Certificate"
    )
    request.refresh_from_db()
    assert request.received_on == TODAY and request.file.name
    with pytest.raises(Refused):
        document_request_received(request, actor=officer, received_on=TODAY, file=pdf())
    assert Event.objects.filter(action="rabies.bite.document_received").count() == 1


# --- The decision ------------------------------------------------------------------------


def test_destroy_for_testing_then_result_closes(north_branch, officer):
    bite = make_bite(north_branch, officer)
    bite_decide(
        bite,
        BiteDecision.DESTROY_FOR_TESTING,
        "Behaving strangely, owner consents",
        officer,
        laboratory="State Public Health Laboratory",
        destroyed_on=TODAY,
        submitted_on=TODAY,
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.TESTING
    assert bite.decision_citation == "North Branch Sec. 6-96(6)"
    decision = Decision.objects.get(kind="rabies_destroy_for_testing")
    submission = LabSubmission.objects.get()
    assert submission.decision == decision and submission.result == LabResult.PENDING
    with pytest.raises(Refused) as exc:
        lab_result_record(
            submission,
            actor=officer,
            result=LabResult.NEGATIVE,
            result_on=TODAY - timedelta(days=1),
            result_file=pdf(),
        )
    assert exc.value.checks[0].field == "result_on"
    lab_result_record(
        submission, actor=officer, result=LabResult.NEGATIVE, result_on=TODAY, result_file=pdf()
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and bite.closed_on == TODAY
    assert "Negative" in bite.closing_note
    assert bite.attention == ""


def test_positive_result_is_flagged(north_branch, officer):
    bite = make_bite(north_branch, officer)
    bite_decide(
        bite,
        BiteDecision.DESTROY_FOR_TESTING,
        "Signs",
        officer,
        laboratory="Lab",
        destroyed_on=TODAY,
        submitted_on=TODAY,
    )
    lab_result_record(
        LabSubmission.objects.get(),
        actor=officer,
        result=LabResult.POSITIVE,
        result_on=TODAY,
        result_file=pdf(),
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED
    assert "followed up" in bite.attention
    assert bite.attention_citation == "North Branch Sec. 6-96"


def test_destroy_needs_dates(north_branch, officer):
    bite = make_bite(north_branch, officer)
    with pytest.raises(Refused) as exc:
        bite_decide(bite, BiteDecision.DESTROY_FOR_TESTING, "Signs", officer, laboratory="Lab")
    assert exc.value.checks[0].field == "destroyed_on"
    bite.refresh_from_db()
    assert bite.status == BiteStatus.OPEN and not Decision.objects.exists()


def test_destroy_for_testing_refused_in_glencoe_for_a_dog(glencoe, officer):
    bite = make_bite(glencoe, officer)
    offers = {o.decision: o for o in decisions_offered(bite)}
    assert not offers[BiteDecision.DESTROY_FOR_TESTING].offered
    assert not offers[BiteDecision.HEARING].offered
    assert offers[BiteDecision.NOT_SUSPECT].offered
    with pytest.raises(Refused) as exc:
        bite_decide(
            bite,
            BiteDecision.DESTROY_FOR_TESTING,
            "Signs",
            officer,
            destroyed_on=TODAY,
            submitted_on=TODAY,
        )
    assert exc.value.checks[0].citation == "Glencoe 701 Subd. 21(A), (B)"
    assert "quarantines" in exc.value.checks[0].message
    bite.refresh_from_db()
    assert bite.status == BiteStatus.OPEN


def test_north_branch_offers_no_hearing_and_no_suspect_call(north_branch, officer):
    bite = make_bite(north_branch, officer)
    offers = {o.decision: o for o in decisions_offered(bite)}
    assert offers[BiteDecision.DESTROY_FOR_TESTING].offered
    assert not offers[BiteDecision.HEARING].offered
    assert not offers[BiteDecision.NOT_SUSPECT].offered
    with pytest.raises(Refused):
        bite_decide(bite, BiteDecision.HEARING, "Seize", officer)


def test_not_suspect_closes_with_the_call_recorded(glencoe, officer):
    bite = make_bite(glencoe, officer, skin_broken=False, saliva_exposure=SalivaExposure.NONE)
    bite_decide(bite, BiteDecision.NOT_SUSPECT, "A nip through a coat; no skin broken", officer)
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and bite.suspect is False
    assert bite.suspect_reasons.startswith("A nip")
    assert bite.decision_citation == "Glencoe 701 Subd. 1(N)"
    with pytest.raises(Refused):
        bite_decide(bite, BiteDecision.NO_ACTION, "again", officer)


def test_no_action_closes(north_branch, officer):
    bite = make_bite(
        north_branch, officer, biter_kind=BiterKind.STRAY, animal=None, biter_species="dog"
    )
    bite_decide(bite, BiteDecision.NO_ACTION, "The stray was not found", officer)
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and "not found" in bite.closing_note


def test_reasons_required(north_branch, officer):
    with pytest.raises(Refused) as exc:
        bite_decide(make_bite(north_branch, officer), BiteDecision.NO_ACTION, "  ", officer)
    assert exc.value.checks[0].field == "reasons"


def _glencoe_pet_bite(glencoe, officer):
    pet = owned_dog(glencoe, species=Species.OTHER, name="Rocky")
    return make_bite(glencoe, officer, animal=pet)


def test_glencoe_other_species_goes_to_the_hearing_examiner(glencoe, officer):
    bite = _glencoe_pet_bite(glencoe, officer)
    offers = {o.decision: o for o in decisions_offered(bite)}
    assert offers[BiteDecision.HEARING].offered
    assert offers[BiteDecision.HEARING].citation == "Glencoe 701 Subd. 21(C)"
    with pytest.raises(Refused) as exc:  # a known owner gets a notice naming the hearing
        bite_decide(bite, BiteDecision.HEARING, "Bit a child", officer)
    assert exc.value.checks[0].field == "scheduled_for"
    bite_decide(
        bite,
        BiteDecision.HEARING,
        "Bit a child on the hand",
        officer,
        scheduled_for=at(TODAY + timedelta(days=7), 14),
        place="City Hall",
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.HEARING and bite.suspect is True
    hearing = ExaminerHearing.objects.get(bite_report=bite)
    assert hearing.notice is not None and hearing.citation == "Glencoe 701 Subd. 21(C)"
    # No submission before the Examiner decides (RAB-22).
    with pytest.raises(Refused):
        lab_submit(bite, actor=officer, destroyed_on=TODAY, submitted_on=TODAY)
    with pytest.raises(Refused) as exc:
        bite_hearing_decide(
            bite,
            actor=officer,
            outcome=HearingOutcome.EUTHANIZE_AND_TEST,
            examiner_name="H. Examiner",
            decided_on=TODAY,
            reasons="Risk",
        )
    assert exc.value.checks[0].field == "held_on"
    bite_hearing_decide(
        bite,
        actor=officer,
        outcome=HearingOutcome.EUTHANIZE_AND_TEST,
        examiner_name="H. Examiner",
        held_on=TODAY,
        decided_on=TODAY,
        reasons="Rabies in the area; no shedding period known",
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.HEARING
    submission = lab_submit(bite, actor=officer, destroyed_on=TODAY, submitted_on=TODAY)
    assert (
        submission.laboratory == "Veterinary Diagnostic Laboratory at the University of Minnesota"
    )
    assert submission.decision == ExaminerHearing.objects.get().decision
    bite.refresh_from_db()
    assert bite.status == BiteStatus.TESTING
    lab_result_record(
        submission,
        actor=officer,
        result=LabResult.UNSATISFACTORY,
        result_on=TODAY,
        result_file=pdf(),
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and "unsatisfactory" in bite.closing_note


def test_hearing_release_closes(glencoe, officer):
    bite = _glencoe_pet_bite(glencoe, officer)
    bite_decide(bite, BiteDecision.HEARING, "Bit", officer, owner_known=False)
    with pytest.raises(Refused) as exc:
        bite_hearing_decide(
            bite,
            actor=officer,
            outcome=HearingOutcome.EUTHANIZE,
            examiner_name="H",
            decided_on=TODAY,
            reasons="x",
        )
    assert exc.value.checks[0].field == "outcome"
    bite_hearing_decide(
        bite,
        actor=officer,
        outcome=HearingOutcome.RELEASE,
        examiner_name="H. Examiner",
        decided_on=TODAY,
        reasons="Low risk",
    )
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and "release" in bite.closing_note.lower()


@pytest.mark.clock("2026-11-05T10:00")
def test_owner_report_hours_are_elapsed_hours_across_the_change_of_clocks(north_branch, officer):
    """November 1, 2026: clocks go back an hour at 2 a.m.; 24 hours after 8 p.m. on
    October 31 is 7 p.m. on November 1 by the wall clock."""
    bitten = at(date(2026, 10, 31), 20, 0)
    bite = report(
        north_branch,
        officer,
        animal=owned_dog(north_branch),
        reporter_kind=ReporterKind.OWNER,
        bitten_at=bitten,
        reported_at=at(date(2026, 11, 1), 19, 30),
    )
    assert bite.owner_report_due_at == bitten + timedelta(hours=23)  # wall clock: 7 p.m.
    assert bite.owner_report_late
