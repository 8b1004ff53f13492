"""Ordering a quarantine, inspections, the move to the facility, the examination
(RAB-13 to RAB-21; C41, C43, C44)."""

from datetime import date, timedelta

import pytest

from impound.models import GateKind
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from rabies.models import BiteDecision, BiterKind, BiteStatus, QuarantineStatus
from rabies.services.quarantine import (
    inspection_log,
    quarantine_exam,
    quarantine_order,
    quarantine_to_facility,
)
from tests.pdf import pdf_text
from tests.rabies.helpers import at
from tests.rabies.qhelpers import BITE_DAY, END, bite, home

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-18T14:00")]


def refusal(exc) -> str:
    return " ".join(str(c) for c in exc.value.checks)


def test_nb_home_confinement_of_a_vaccinated_dog(north_branch, officer):
    b = bite(north_branch, officer)
    q = quarantine_order(b, actor=officer, **home())
    assert q.status == QuarantineStatus.HOME
    assert (q.starts_on, q.ends_on) == (BITE_DAY, END)  # a weekend and Christmas count
    assert q.end_citation == "North Branch Sec. 6-98"
    assert q.start_label == "the date of the bite"
    assert "10 days" in q.end_basis
    assert q.vaccinated and q.vaccination is not None
    assert q.home_address == b.animal.owner.address
    assert len(q.conditions) == 5
    leash = q.conditions[1]
    assert "not exceeding 6 feet" in leash["text"] and "{leash}" not in leash["text"]
    assert all(c["citation"].startswith("North Branch Sec. 6-98") for c in q.conditions)
    b.refresh_from_db()
    assert b.status == BiteStatus.QUARANTINE
    assert b.decision == BiteDecision.CONFINE and b.decided_by == officer
    assert b.decision_citation.startswith("North Branch Sec. 6-98")
    assert Event.objects.filter(action="rabies.quarantine.ordered").count() == 1
    text = pdf_text(document_pdf(q.order))
    for expected in (
        "Quarantine order",
        q.number,
        "Mon, Dec 28, 2026",
        "North Branch Sec. 6-98",
        "not exceeding 6 feet",
        "Olivia Officer",
        b.animal.owner.address,
        "Written permission of the animal control officer or the Chief of Police",
    ):
        assert expected in text, expected


def test_nb_unvaccinated_dog_is_refused_home_and_goes_to_the_facility(north_branch, officer, pound):
    b = bite(north_branch, officer, vaccinated=False)
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, **home())
    assert "No proof of current vaccination" in refusal(exc)
    assert "North Branch Sec. 6-98(1)" in refusal(exc)
    assert exc.value.checks[0].field == "place"
    q = quarantine_order(b, actor=officer, place="facility", pound=pound)
    assert q.status == QuarantineStatus.FACILITY
    case = q.impound_case
    assert case.ground == "rabies_suspect"
    assert case.hold_starts_on == BITE_DAY and case.hold_key == "bite_confinement_days"
    assert case.animal == b.animal
    gate = case.gates.get()
    assert gate.kind == GateKind.RELEASE_ORDER and gate.is_open
    assert gate.label == "Written permission of the animal control officer or the Chief of Police"
    assert gate.citation == "North Branch Sec. 6-98(3)"
    assert q.ends_on == END


def test_home_needs_the_officers_consent(north_branch, officer):
    b = bite(north_branch, officer)
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, place="home", consent_by_name="", consent_on=None)
    fields = {c.field for c in exc.value.checks}
    assert fields == {"consent_by_name", "consent_on"}
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, **home(consent_on=date(2026, 12, 19)))
    assert exc.value.checks[0].field == "consent_on"
    b.refresh_from_db()
    assert b.status == BiteStatus.OPEN


def test_facility_needs_a_pound(north_branch, officer):
    b = bite(north_branch, officer, vaccinated=False)
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, place="facility")
    assert exc.value.checks[0].field == "pound"


def test_a_stray_goes_to_the_facility_only(north_branch, officer, pound):
    b = bite(
        north_branch,
        officer,
        animal=None,
        vaccinated=False,
        biter_kind=BiterKind.STRAY,
        biter_species="dog",
        biter_description="Brown short-haired dog, red collar",
    )
    # make_bite fills a registered dog when animal is None: clear it for a stray.
    b.animal = None
    b.save(update_fields=["animal"])
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, **home())
    assert "stray" in refusal(exc)
    q = quarantine_order(b, actor=officer, place="facility", pound=pound)
    assert q.animal is None and q.species == "dog"
    assert q.impound_case.animal is None
    assert "red collar" in q.description


def test_a_second_order_for_the_same_bite_is_refused(north_branch, officer):
    b = bite(north_branch, officer)
    quarantine_order(b, actor=officer, **home())
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, **home())
    assert "already has a quarantine running" in refusal(exc)


def test_glencoe_vaccinated_dog_is_quarantined_by_the_owner(glencoe, officer):
    b = bite(glencoe, officer)
    q = quarantine_order(b, actor=officer, **home())
    assert q.status == QuarantineStatus.HOME
    assert q.ends_on == END
    assert q.end_citation == "Glencoe 701 Subd. 21(A), (B)"
    assert [c["citation"] for c in q.conditions] == ["Glencoe 701 Subd. 21(B)"] * 2
    text = pdf_text(document_pdf(q.order))
    assert "Minnesota Board of Animal Health" in text


def test_glencoe_unvaccinated_dog_is_seized_and_impounded(glencoe, officer, pound):
    b = bite(glencoe, officer, vaccinated=False)
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, **home())
    assert "Glencoe 701 Subd. 21(A), (B)" in refusal(exc)
    q = quarantine_order(
        b,
        actor=officer,
        place="facility",
        pound=pound,
        enclosure_approved_by="Dr. Vera Vet",
        enclosure_approved_on=BITE_DAY,
    )
    gate = q.impound_case.gates.get()
    assert gate.label == (
        "The veterinarian's written report received by the Animal Control Officer and the "
        "Minnesota Board of Animal Health"
    )
    assert gate.citation == "Glencoe 701 Subd. 21(E), 22(E)"
    assert q.enclosure_approved_by == "Dr. Vera Vet"


def test_glencoe_other_species_goes_before_the_hearing_examiner(glencoe, officer, pound):
    from tests.impound.helpers import owned_dog

    animal = owned_dog(glencoe, species="other")
    b = bite(glencoe, officer, animal=animal)
    with pytest.raises(Refused) as exc:
        quarantine_order(b, actor=officer, place="facility", pound=pound)
    assert "Hearing Examiner" in refusal(exc)
    assert "Glencoe 701 Subd. 21(C)" in refusal(exc)


def test_an_officer_of_another_city_is_refused(north_branch, glencoe):
    from tests.conftest import make_user

    gl_only = make_user("gil", "officer", [glencoe])
    b = bite(north_branch, gl_only)
    with pytest.raises(Refused):
        quarantine_order(b, actor=gl_only, **home())


# --- Inspections and the move to the facility ------------------------------------------


@pytest.fixture
def nb_home(north_branch, officer):
    return quarantine_order(bite(north_branch, officer), actor=officer, **home())


def test_an_inspection_logs_each_condition(nb_home, officer, time_machine):
    time_machine.move_to(at(date(2026, 12, 21), 15), tick=False)
    kept = [c["text"] for c in nb_home.conditions[:4]]
    inspection = inspection_log(
        nb_home,
        actor=officer,
        at=at(date(2026, 12, 21), 14),
        inspector_name="Olivia Officer",
        checks=kept,
        compliant=True,
        notes="Dog in the locked kennel.",
    )
    assert [c["kept"] for c in inspection.checks] == [True, True, True, True, False]
    nb_home.refresh_from_db()
    assert not nb_home.attention
    assert Event.objects.filter(action="rabies.quarantine.inspected").count() == 1


def test_an_inspection_cannot_be_in_the_future_or_before_the_start(nb_home, officer):
    for when in (at(date(2026, 12, 19), 9), at(date(2026, 12, 17), 9)):
        with pytest.raises(Refused) as exc:
            inspection_log(nb_home, actor=officer, at=when, inspector_name="O", compliant=True)
        assert exc.value.checks[0].field == "at"


def test_the_owners_report_of_a_change_flags_the_quarantine(nb_home, officer):
    inspection_log(
        nb_home,
        actor=officer,
        kind="owner_report",
        at=at(BITE_DAY, 13),
        inspector_name="Owner by phone",
        compliant=True,
        notes="Not eating, drooling",
    )
    nb_home.refresh_from_db()
    assert "change in the animal's health or behavior" in nb_home.attention
    assert "drooling" in nb_home.attention
    assert nb_home.attention_citation == "North Branch Sec. 6-98(4)"


def test_a_breach_lets_the_officer_move_it_to_the_facility_for_the_days_left(
    nb_home, officer, pound, time_machine
):
    with pytest.raises(Refused) as exc:
        quarantine_to_facility(nb_home, pound=pound, actor=officer, reason="No breach yet")
    assert "North Branch Sec. 6-98(6)" in refusal(exc)
    time_machine.move_to(at(date(2026, 12, 22), 11), tick=False)
    inspection_log(
        nb_home,
        actor=officer,
        at=at(date(2026, 12, 22), 10),
        inspector_name="Olivia Officer",
        compliant=False,
        notes="Dog loose in the yard, gate unlocked",
    )
    nb_home.refresh_from_db()
    assert nb_home.attention_citation == "North Branch Sec. 6-98(6)"
    q = quarantine_to_facility(nb_home, pound=pound, actor=officer, reason="Gate unlocked")
    assert q.status == QuarantineStatus.FACILITY and q.place == "facility"
    assert q.moved_to_facility_on == date(2026, 12, 22)
    assert q.ends_on == END  # the days left, not a new period
    assert q.impound_case.hold_starts_on == BITE_DAY
    assert not q.attention
    event = Event.objects.get(action="rabies.quarantine.to_facility")
    assert "6 days left" in event.summary


# --- The examination (C44) -------------------------------------------------------------


def test_the_exam_is_refused_before_the_end(nb_home, officer):
    with pytest.raises(Refused) as exc:
        quarantine_exam(
            nb_home,
            actor=officer,
            examined_on=BITE_DAY,
            examiner_name="Dr. Vera Vet",
            examiner_capacity="Veterinarian",
            clinical_signs=False,
        )
    assert "not before Dec 28, 2026" in refusal(exc)
    assert exc.value.checks[0].field == "examined_on"


def test_signs_at_the_exam_escalate(glencoe, officer, time_machine):
    q = quarantine_order(bite(glencoe, officer), actor=officer, **home())
    time_machine.move_to(at(END + timedelta(days=1), 10), tick=False)
    q = quarantine_exam(
        q,
        actor=officer,
        examined_on=END + timedelta(days=1),
        examiner_name="Dr. Vera Vet",
        examiner_capacity="Veterinarian",
        clinical_signs=True,
        notes="Hypersalivation",
    )
    assert q.status == QuarantineStatus.SIGNS
    assert "Signs of rabies" in q.attention
    assert q.attention_citation == "Glencoe 701 Subd. 21(C)"
