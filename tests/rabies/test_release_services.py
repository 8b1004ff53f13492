"""Release from quarantine: the city's gate and nothing else (RAB-16, RAB-20,
RAB-21, RAB-24; C42, C45). Ten days under time_machine, a weekend and Christmas counted."""

from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from impound.services.redemption import case_redeem, redemption_quote
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from rabies.models import BiteStatus, QuarantineStatus
from rabies.services.quarantine import (
    permission_record,
    quarantine_exam,
    quarantine_order,
    quarantine_release,
    release_checklist,
    report_record,
)
from tests.pdf import pdf_text
from tests.rabies.helpers import at
from tests.rabies.qhelpers import BITE_DAY, END, bite, home
from tests.upload_files import pdf_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-18T14:00")]
PDF = pdf_bytes()


def refusal(exc) -> str:
    return " ".join(str(c) for c in exc.value.checks)


def report_pdf():
    return SimpleUploadedFile("report.pdf", PDF, content_type="application/pdf")


def permit(q, officer, **extra):
    values = {
        "signer_name": "Olivia Officer",
        "capacity": "Animal control officer",
        "permission_on": END,
        "reason": "Ten days over; no signs of illness",
    }
    values.update(extra)
    return permission_record(q, actor=officer, **values)


@pytest.fixture
def nb_home(north_branch, officer):
    return quarantine_order(bite(north_branch, officer), actor=officer, **home())


def test_north_branch_release_waits_for_the_end_then_the_written_permission(
    nb_home, officer, time_machine
):
    with pytest.raises(Refused) as exc:
        quarantine_release(nb_home, actor=officer)
    assert "The period is over (Dec 28, 2026)" in refusal(exc)
    assert "North Branch Sec. 6-98" in refusal(exc)
    time_machine.move_to(at(END, 9), tick=False)  # ten days later, after a weekend and Christmas
    with pytest.raises(Refused) as exc:
        quarantine_release(nb_home, actor=officer)
    text = refusal(exc)
    assert (
        "Missing: Written permission of the animal control officer or the Chief of Police" in text
    )
    assert "North Branch Sec. 6-98(3)" in text
    assert "period" not in text
    q = permit(nb_home, officer)
    assert q.permission_document is not None
    pdf = pdf_text(document_pdf(q.permission_document))
    assert "Olivia Officer, Animal control officer" in pdf
    assert "North Branch Sec. 6-98(3)" in pdf
    q = quarantine_release(q, actor=officer)
    assert q.status == QuarantineStatus.RELEASED
    assert q.released_on == END and q.released_by == officer
    assert Event.objects.filter(action="rabies.quarantine.released").count() == 1
    # The bite's case ends with its confinement (Appendix B4).
    bite = q.bite_report
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED and bite.closed_on == END
    assert "Written permission of Olivia Officer" in bite.closing_note


def test_north_branch_permission_only_by_a_named_signer_and_not_in_the_future(nb_home, officer):
    with pytest.raises(Refused) as exc:
        permit(nb_home, officer, capacity="Mayor")
    assert exc.value.checks[0].field == "capacity"
    assert "Animal control officer or Chief of Police" in refusal(exc)
    with pytest.raises(Refused) as exc:
        permit(nb_home, officer, permission_on=date(2026, 12, 19))
    assert exc.value.checks[0].field == "permission_on"
    with pytest.raises(Refused) as exc:
        permit(nb_home, officer, signer_name="", reason="")
    assert {c.field for c in exc.value.checks} == {"signer_name", "reason"}


def test_a_permission_is_recorded_once(nb_home, officer):
    permit(nb_home, officer, permission_on=BITE_DAY)
    with pytest.raises(Refused) as exc:
        permit(nb_home, officer)
    assert "Already recorded" in refusal(exc)


def test_north_branch_has_no_veterinarians_report(nb_home, officer):
    with pytest.raises(Refused) as exc:
        report_record(nb_home, actor=officer, veterinarian="Dr. V")
    assert "does not release by a veterinarian's report" in refusal(exc)


@pytest.fixture
def gl_home(glencoe, officer):
    return quarantine_order(bite(glencoe, officer), actor=officer, **home())


def exam(q, officer, on, signs=False):
    return quarantine_exam(
        q,
        actor=officer,
        examined_on=on,
        examiner_name="Dr. Vera Vet",
        examiner_capacity="Veterinarian",
        clinical_signs=signs,
    )


def test_glencoe_release_needs_the_exam_and_the_report_received_by_both(
    gl_home, officer, time_machine
):
    day = END + timedelta(days=1)
    time_machine.move_to(at(day, 9), tick=False)
    with pytest.raises(Refused) as exc:
        permit(gl_home, officer)
    assert "does not release by written permission" in refusal(exc)
    with pytest.raises(Refused) as exc:
        quarantine_release(gl_home, actor=officer)
    text = refusal(exc)
    assert "Missing: An examination" in text and "Glencoe 701 Subd. 21(A), (B)" in text
    assert "Missing: The veterinarian's written report" in text
    assert "Missing: Received by Animal Control Officer" in text
    assert "Missing: Received by Minnesota Board of Animal Health" in text
    assert "Glencoe 701 Subd. 21(E), 22(E)" in text
    q = exam(gl_home, officer, day)
    q = report_record(
        q,
        actor=officer,
        veterinarian="Dr. Vera Vet",
        inspected_on=day,
        no_signs=True,
        report_file=report_pdf(),
        received_by_officer_on=day,
    )
    assert not q.release_report_complete
    with pytest.raises(Refused) as exc:
        quarantine_release(q, actor=officer)
    assert refusal(exc) == (
        "Missing: Received by Minnesota Board of Animal Health. (Glencoe 701 Subd. 21(E), 22(E))"
    )
    later = day + timedelta(days=2)
    time_machine.move_to(at(later, 9), tick=False)
    q = report_record(q, actor=officer, received_by_board_on=later)
    assert q.release_report_complete
    q = quarantine_release(q, actor=officer)
    assert q.status == QuarantineStatus.RELEASED


def test_glencoe_report_must_state_no_signs_and_have_the_file(gl_home, officer, time_machine):
    time_machine.move_to(at(END, 15), tick=False)
    with pytest.raises(Refused) as exc:
        report_record(gl_home, actor=officer, veterinarian="Dr. V", inspected_on=END)
    assert {c.field for c in exc.value.checks} == {"no_signs", "report_file"}
    with pytest.raises(Refused) as exc:
        report_record(
            gl_home,
            actor=officer,
            veterinarian="Dr. V",
            inspected_on=END - timedelta(days=1),
            no_signs=True,
            report_file=report_pdf(),
        )
    assert exc.value.checks[0].field == "inspected_on"
    q = report_record(
        gl_home,
        actor=officer,
        veterinarian="Dr. V",
        inspected_on=END,
        no_signs=True,
        report_file=report_pdf(),
    )
    with pytest.raises(Refused) as exc:
        report_record(q, actor=officer, received_by_board_on=END + timedelta(days=1))
    assert exc.value.checks[0].field == "received_by_board_on"  # in the future
    with pytest.raises(Refused) as exc:
        report_record(q, actor=officer, received_by_board_on=END - timedelta(days=1))
    assert "before the inspection" in refusal(exc)


def test_signs_block_the_release(gl_home, officer, time_machine):
    time_machine.move_to(at(END, 15), tick=False)
    exam(gl_home, officer, END, signs=True)
    with pytest.raises(Refused) as exc:
        quarantine_release(gl_home, actor=officer)
    assert "Signs of rabies" in refusal(exc)


def test_the_checklist_shows_recorded_and_missing(gl_home, officer, time_machine):
    time_machine.move_to(at(END, 15), tick=False)
    exam(gl_home, officer, END)
    gl_home.refresh_from_db()
    items = {i.key: i.done for i in release_checklist(gl_home, on=END)}
    assert items == {
        "period": True,
        "exam": True,
        "report": False,
        "received_officer": False,
        "received_board": False,
    }


def test_a_facility_release_clears_the_impound_gate_and_the_fees_stay_impounds(
    north_branch, officer, pound, time_machine
):
    from tests.impound.helpers import set_fee

    set_fee(north_branch, "impounding", "35.00", "Impoundment fee")
    set_fee(north_branch, "boarding_daily", "12.00", "Daily care")
    q = quarantine_order(
        bite(north_branch, officer, vaccinated=False),
        actor=officer,
        place="facility",
        pound=pound,
    )
    case = q.impound_case
    owner = q.animal.owner
    with pytest.raises(Refused) as exc:
        case_redeem(case=case, owner=owner, actor=officer, method="cash")
    assert "Written permission of the animal control officer" in refusal(exc)
    time_machine.move_to(at(END, 10), tick=False)
    permit(q, officer)
    quarantine_release(q, actor=officer)
    gate = case.gates.get()
    assert gate.cleared_by == officer and gate.cleared_at is not None
    assert "Written permission of Olivia Officer" in gate.clearing_record
    case.refresh_from_db()
    assert case.is_open  # the owner still redeems from impound
    quote = redemption_quote(case=case, owner=owner, on=END, licensed=True)
    assert not any("Written permission" in str(c.check()) for c in quote.conditions)
    assert quote.lines  # impound's fees are charged, through impound's redemption
