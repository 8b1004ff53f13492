"""Laboratory submissions and results of a bite's animal (NB Sec. 6-96(6); GL Subd. 21(C))."""

from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from licensing.models import Species
from ordinance.refusals import Refused
from rabies.models import BiteDecision, BiteStatus, HearingOutcome, LabResult, LabSubmission
from rabies.services.bites import bite_decide, bite_hearing_decide
from rabies.services.testing import default_laboratory, lab_result_record, lab_submit
from tests.impound.helpers import PDF, owned_dog
from tests.rabies.helpers import make_bite

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]

TODAY = date(2026, 12, 7)


def pdf():
    return SimpleUploadedFile("lab.pdf", PDF, content_type="application/pdf")


def test_laboratory_named_by_the_ordinance(north_branch, glencoe):
    assert default_laboratory(glencoe, on=TODAY) == (
        "Veterinary Diagnostic Laboratory at the University of Minnesota",
        "Glencoe 701 Subd. 21(C)",
    )
    assert default_laboratory(north_branch, on=TODAY) == ("", "")


def test_north_branch_names_the_laboratory_itself(north_branch, officer):
    bite = make_bite(north_branch, officer)
    with pytest.raises(Refused) as exc:
        bite_decide(
            bite,
            BiteDecision.DESTROY_FOR_TESTING,
            "Signs",
            officer,
            destroyed_on=TODAY,
            submitted_on=TODAY,
        )
    assert exc.value.checks[0].field == "laboratory"
    bite.refresh_from_db()
    assert bite.status == BiteStatus.OPEN and not LabSubmission.objects.exists()


@pytest.mark.parametrize(
    ("destroyed", "submitted", "field"),
    [
        (TODAY, TODAY - timedelta(days=1), "submitted_on"),  # before the destruction
        (TODAY + timedelta(days=1), TODAY + timedelta(days=1), "destroyed_on"),  # future
        (TODAY - timedelta(days=5), TODAY, "destroyed_on"),  # before the bite
    ],
)
def test_submission_dates_checked(north_branch, officer, destroyed, submitted, field):
    bite = make_bite(north_branch, officer)
    with pytest.raises(Refused) as exc:
        bite_decide(
            bite,
            BiteDecision.DESTROY_FOR_TESTING,
            "Signs",
            officer,
            laboratory="MDH Public Health Laboratory",
            destroyed_on=destroyed,
            submitted_on=submitted,
        )
    assert exc.value.checks[0].field == field


def test_result_recorded_once_and_needs_the_report(north_branch, officer):
    bite = make_bite(north_branch, officer)
    bite_decide(
        bite,
        BiteDecision.DESTROY_FOR_TESTING,
        "Signs",
        officer,
        laboratory="MDH Public Health Laboratory",
        destroyed_on=TODAY,
        submitted_on=TODAY,
    )
    submission = LabSubmission.objects.get()
    with pytest.raises(Refused) as exc:
        lab_result_record(submission, actor=officer, result=LabResult.NEGATIVE, result_on=TODAY)
    assert exc.value.checks[0].field == "result_file"
    with pytest.raises(Refused) as exc:
        lab_result_record(
            submission, actor=officer, result=LabResult.PENDING, result_on=TODAY, result_file=pdf()
        )
    assert exc.value.checks[0].field == "result"
    lab_result_record(
        submission, actor=officer, result=LabResult.NEGATIVE, result_on=TODAY, result_file=pdf()
    )
    with pytest.raises(Refused):
        lab_result_record(
            submission,
            actor=officer,
            result=LabResult.POSITIVE,
            result_on=TODAY,
            result_file=pdf(),
        )
    submission.refresh_from_db()
    assert submission.result == LabResult.NEGATIVE


def test_submission_after_a_release_refused(glencoe, officer):
    bite = make_bite(glencoe, officer, animal=owned_dog(glencoe, species=Species.OTHER))
    bite_decide(bite, BiteDecision.HEARING, "Bit a child", officer, owner_known=False)
    bite_hearing_decide(
        bite,
        actor=officer,
        outcome=HearingOutcome.RELEASE,
        examiner_name="H. Examiner",
        decided_on=TODAY,
        reasons="Low risk",
    )
    bite.refresh_from_db()
    with pytest.raises(Refused):
        lab_submit(bite, actor=officer, destroyed_on=TODAY, submitted_on=TODAY)
    assert not LabSubmission.objects.exists()
