"""Exposure to a rabid animal (Glencoe 701 Subd. 1(L), 22; RAB-25..30, RAB-33): each path
with its dates checked against the profile, month ends and a leap year included, and
release refused until each condition is met."""

from datetime import date, datetime, timedelta

import pytest

from ordinance.calendar import add_months
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force
from rabies.models import (
    ExposurePath,
    ExposureStatus,
    HearingOutcome,
    RabidBasis,
)
from rabies.services import exposures as svc
from rabies.services.exposures import paths as exposure_paths
from tests.impound.helpers import order_pdf, owned_dog
from tests.pdf import pdf_text
from tests.rabies.helpers import at, make_exposure, vaccinate

pytestmark = pytest.mark.clock("2028-06-01T10:00")


def open_case(animal, officer, on, **fields):
    values = {
        "animal": animal,
        "actor": officer,
        "exposed_on": on,
        "how_exposed": "Bitten on the muzzle in the back yard",
        "rabid_species": "raccoon",
        "rabid_basis": RabidBasis.DEEMED,
        "now": at(on, 16),
    }
    values.update(fields)
    return svc.exposure_open(**values)


def rule(city, key, on=date(2026, 8, 31)):
    return rule_in_force(city, key, on=on)


def report(exposure, officer, on, *, board=True):
    return svc.exposure_release_report(
        exposure=exposure,
        actor=officer,
        report_veterinarian="Dr. Vera Vet",
        report_inspected_on=on,
        report_no_signs=True,
        report_file=order_pdf("report.pdf"),
        report_received_by_officer_on=on,
        report_received_by_board_on=on if board else None,
        now=at(on, 15),
    )


def refusal(excinfo) -> str:
    return " ".join(str(c) for c in excinfo.value.checks)


# --- Opening ---------------------------------------------------------------------------


def test_north_branch_has_no_exposure_rule_and_says_state_law_governs(north_branch, officer):
    dog = owned_dog(north_branch)
    with pytest.raises(Refused) as excinfo:
        open_case(dog, officer, date(2026, 8, 31))
    text = refusal(excinfo)
    assert "no rule for animals exposed to rabies: state law governs" in text
    assert "North Branch Sec. 6-28, 6-96" in text


def test_a_vaccinated_dog_bitten_by_a_raccoon_opens_the_22b_path_and_issues_the_board_report(
    glencoe, officer
):
    dog = owned_dog(glencoe, name="Fritz")
    vaccinate(dog, date(2026, 1, 10))
    exposure = open_case(dog, officer, date(2026, 8, 31))
    assert exposure.number == "EX-2026-0001"
    assert exposure.path == ExposurePath.VACCINATED_DOG_CAT and exposure.vaccinated
    assert exposure.path_citation == rule(glencoe, svc.OBSERVATION_DAYS).citation
    assert exposure.path_citation == "Glencoe 701 Subd. 22(B)"
    assert exposure.rabid_citation == "Glencoe 701 Subd. 1(L)"
    assert exposure.status == ExposureStatus.REPORTED
    document = exposure.board_report
    text = pdf_text(document.file.read())
    for words in (
        "Minnesota Board of Animal Health",
        "Fritz",
        "Raccoon",
        "EX-2026-0001",
        "Glencoe 701 Subd. 22(D)",
        "Vaccinated dog or cat",
        "Aug 31, 2026",
    ):
        assert words in text, words
    assert Event.objects.filter(action="rabies.exposure.opened").count() == 1


@pytest.mark.parametrize(
    ("species", "vaccinated", "path", "citation"),
    [
        ("dog", False, ExposurePath.UNVACCINATED_DOG_CAT, "Glencoe 701 Subd. 22(A), 22(C)(2)"),
        ("cat", True, ExposurePath.VACCINATED_DOG_CAT, "Glencoe 701 Subd. 22(B)"),
        ("ferret", True, ExposurePath.VACCINATED_OTHER, "Glencoe 701 Subd. 22(C)(1)"),
        ("ferret", False, ExposurePath.UNVACCINATED_OTHER, "Glencoe 701 Subd. 22(A), 22(C)(2)"),
    ],
)
def test_the_path_follows_licensings_vaccination_status_and_the_species(
    glencoe, officer, species, vaccinated, path, citation
):
    animal = owned_dog(glencoe, species=species)
    if vaccinated:
        vaccinate(animal, date(2026, 3, 1))
    basis = {"rabid_basis": RabidBasis.LABORATORY, "rabid_basis_detail": "UMN VDL, positive"}
    exposure = open_case(animal, officer, date(2026, 8, 31), **basis)
    assert (exposure.path, exposure.path_citation, exposure.vaccinated) == (
        path,
        citation,
        vaccinated,
    )


def test_a_vaccination_run_out_by_the_exposure_day_counts_as_unvaccinated(glencoe, officer):
    dog = owned_dog(glencoe)
    vaccinate(dog, date(2025, 8, 1))  # covers through July 31, 2026
    exposure = open_case(dog, officer, date(2026, 8, 31))
    assert exposure.path == ExposurePath.UNVACCINATED_DOG_CAT


def test_only_the_listed_species_are_deemed_rabid_and_only_for_a_dog_or_cat(glencoe, officer):
    dog = owned_dog(glencoe)
    with pytest.raises(Refused) as excinfo:
        open_case(dog, officer, date(2026, 8, 31), rabid_species="coyote")
    assert excinfo.value.checks[0].field == "rabid_basis"
    assert "skunk" in refusal(excinfo) and "Glencoe 701 Subd. 1(L)" in refusal(excinfo)
    ferret = owned_dog(glencoe, species="ferret")
    with pytest.raises(Refused) as excinfo:
        open_case(ferret, officer, date(2026, 8, 31))
    assert "only when it bites a dog or cat" in refusal(excinfo)
    with pytest.raises(Refused) as excinfo:
        open_case(dog, officer, date(2026, 8, 31), rabid_basis=RabidBasis.VETERINARIAN)
    assert excinfo.value.checks[0].field == "rabid_basis_detail"


def test_the_exposure_date_cannot_be_in_the_future(glencoe, officer):
    with pytest.raises(Refused) as excinfo:
        open_case(owned_dog(glencoe), officer, date(2026, 9, 2), now=at(date(2026, 9, 1)))
    assert excinfo.value.checks[0].field == "exposed_on"


# --- The Board report -------------------------------------------------------------------


def test_the_board_reports_sending_is_recorded_once_and_not_in_the_future(glencoe, officer):
    exposure = make_exposure(glencoe, officer, exposed_on=date(2026, 8, 31))
    with pytest.raises(Refused) as excinfo:
        svc.board_report_sent(
            exposure=exposure,
            actor=officer,
            sent_on=date(2026, 9, 3),
            sent_how="e-mail",
            now=at(date(2026, 9, 2)),
        )
    assert excinfo.value.checks[0].field == "sent_on"
    svc.board_report_sent(
        exposure=exposure,
        actor=officer,
        sent_on=date(2026, 9, 1),
        sent_how="e-mail",
        now=at(date(2026, 9, 2)),
    )
    exposure.refresh_from_db()
    assert (exposure.board_report_sent_on, exposure.board_report_sent_how) == (
        date(2026, 9, 1),
        "e-mail",
    )
    with pytest.raises(Refused):
        svc.board_report_sent(
            exposure=exposure,
            actor=officer,
            sent_on=date(2026, 9, 2),
            sent_how="fax",
            now=at(date(2026, 9, 2)),
        )


# --- 22(B): a vaccinated dog or cat, observed 45 days -----------------------------------


def test_vaccinated_dog_observed_45_days_closed_by_the_vets_report(glencoe, officer):
    dog = owned_dog(glencoe)
    vaccinate(dog, date(2026, 1, 10))
    exposure = open_case(dog, officer, date(2026, 8, 31))
    svc.exposure_revaccinate(
        exposure=exposure,
        actor=officer,
        revaccinated_on=date(2026, 8, 31),
        now=at(date(2026, 8, 31), 17),
    )
    exposure.refresh_from_db()
    days = rule(glencoe, svc.OBSERVATION_DAYS)
    assert days.value == 45 and days.unit == "days"
    assert exposure.status == ExposureStatus.OBSERVATION
    assert exposure.period_starts_on == date(2026, 8, 31)
    assert exposure.period_ends_on == date(2026, 8, 31) + timedelta(days=45) == date(2026, 10, 15)
    assert exposure.period_citation == "Glencoe 701 Subd. 22(B)"
    assert exposure.revaccinated_on == date(2026, 8, 31)
    # Before the end: refused, naming the end.
    with pytest.raises(Refused) as excinfo:
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2026, 10, 14),
            now=at(date(2026, 10, 14)),
        )
    assert "Oct 15, 2026" in refusal(excinfo)
    # At the end, the report (gl_release_report_for_observation) is still missing.
    assert rule(glencoe, svc.REPORT_FOR_OBSERVATION).value is True
    with pytest.raises(Refused) as excinfo:
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2026, 10, 15),
            now=at(date(2026, 10, 15)),
        )
    assert "the day the Board received it" in refusal(excinfo)
    report(exposure, officer, date(2026, 10, 15), board=False)
    exposure.refresh_from_db()
    with pytest.raises(Refused) as excinfo:
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2026, 10, 15),
            now=at(date(2026, 10, 15), 16),
        )
    assert "Board" in refusal(excinfo) and "officer received" not in refusal(excinfo)
    report(exposure, officer, date(2026, 10, 16))
    exposure.refresh_from_db()
    svc.exposure_release(
        exposure=exposure,
        actor=officer,
        released_on=date(2026, 10, 16),
        now=at(date(2026, 10, 16), 16),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.RELEASED
    assert exposure.closed_on == date(2026, 10, 16)


def test_without_the_report_rule_the_officer_closes_the_observation_at_its_end(
    glencoe, officer, monkeypatch
):
    real = exposure_paths.city_rule

    def no_report(jurisdiction, key, *, on):
        if key == svc.REPORT_FOR_OBSERVATION:
            return None
        return real(jurisdiction, key, on=on)

    monkeypatch.setattr(exposure_paths, "city_rule", no_report)
    exposure = make_exposure(
        glencoe,
        officer,
        exposed_on=date(2026, 8, 31),
        status=ExposureStatus.OBSERVATION,
        period_starts_on=date(2026, 8, 31),
        period_ends_on=date(2026, 10, 15),
        earliest_release_on=date(2026, 10, 15),
    )
    svc.exposure_release(
        exposure=exposure,
        actor=officer,
        released_on=date(2026, 10, 15),
        now=at(date(2026, 10, 15)),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.RELEASED


# --- 22(C)(1): another animal, vaccinated, 90 days in an enclosure ----------------------


def test_vaccinated_ferret_enclosed_90_days_not_3_months(glencoe, officer):
    ferret = owned_dog(glencoe, species="ferret")
    vaccinate(ferret, date(2026, 3, 1))
    exposure = open_case(
        ferret,
        officer,
        date(2026, 8, 31),
        rabid_basis=RabidBasis.VETERINARIAN,
        rabid_basis_detail="Dr. Holm observed signs of rabies in the skunk",
        rabid_species="skunk",
    )
    svc.exposure_revaccinate(
        exposure=exposure,
        actor=officer,
        revaccinated_on=date(2026, 9, 1),
        location="Owner's basement pen",
        now=at(date(2026, 9, 1)),
    )
    exposure.refresh_from_db()
    assert rule(glencoe, svc.ENCLOSURE_DAYS).value == 90
    assert exposure.status == ExposureStatus.ENCLOSURE
    assert exposure.period_ends_on == date(2026, 11, 29)  # 90 days, not 3 months
    assert add_months(date(2026, 8, 31), 3) == date(2026, 11, 30)
    with pytest.raises(Refused):
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2026, 11, 28),
            now=at(date(2026, 11, 28)),
        )
    with pytest.raises(Refused) as excinfo:  # the report is always needed here (22(E))
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2026, 11, 29),
            now=at(date(2026, 11, 29)),
        )
    assert "Glencoe 701 Subd. 22(B), (E)" in refusal(excinfo)
    report(exposure, officer, date(2026, 11, 29))
    exposure.refresh_from_db()
    svc.exposure_release(
        exposure=exposure,
        actor=officer,
        released_on=date(2026, 11, 29),
        now=at(date(2026, 11, 29), 16),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.RELEASED


# --- 22(A): an unvaccinated dog or cat --------------------------------------------------


def test_unvaccinated_dog_euthanized_with_the_owners_consent(glencoe, officer):
    exposure = open_case(owned_dog(glencoe), officer, date(2026, 8, 31))
    with pytest.raises(Refused) as excinfo:
        svc.exposure_consent(
            exposure=exposure,
            actor=officer,
            consent=True,
            consent_on=date(2026, 9, 1),
            consent_by_name="Gerhard Schmidt",
            consent_file=None,
            euthanized_on=date(2026, 9, 1),
            now=at(date(2026, 9, 1)),
        )
    assert excinfo.value.checks[0].field == "consent_file"
    svc.exposure_consent(
        exposure=exposure,
        actor=officer,
        consent=True,
        consent_on=date(2026, 9, 1),
        consent_by_name="Gerhard Schmidt",
        consent_file=order_pdf("consent.pdf"),
        euthanized_on=date(2026, 9, 2),
        now=at(date(2026, 9, 2)),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.EUTHANIZED
    assert exposure.consent is True and exposure.euthanized_on == date(2026, 9, 2)
    assert exposure.consent_file.name


def refuse(exposure, officer, starts_on, now_on=None, consent_on=None):
    return svc.exposure_consent(
        exposure=exposure,
        actor=officer,
        consent=False,
        consent_on=consent_on or starts_on,
        consent_by_name="Gerhard Schmidt",
        consent_file=order_pdf("refusal.pdf"),
        starts_on=starts_on,
        supervising_veterinarian="Dr. Vera Vet",
        location="Lakes Animal Clinic, isolation run 3",
        now=at(now_on or starts_on, 17),
    )


def test_refusal_quarantines_six_months_from_a_month_end_and_release_waits_for_each_condition(
    glencoe, officer
):
    exposure = open_case(owned_dog(glencoe), officer, date(2026, 8, 31))
    refuse(exposure, officer, date(2026, 8, 31))
    exposure.refresh_from_db()
    months = rule(glencoe, svc.QUARANTINE_MONTHS)
    assert months.value == 6 and months.unit == "months"
    assert exposure.status == ExposureStatus.QUARANTINE
    assert exposure.period_ends_on == date(2027, 2, 28)  # Aug 31 + 6 months
    assert exposure.period_citation == "Glencoe 701 Subd. 22(A), 22(C)(2)"
    assert exposure.supervising_veterinarian == "Dr. Vera Vet"
    # The prompt: vaccinate by the end less the pre-release month.
    assert rule(glencoe, svc.PRERELEASE_MONTHS).value == 1
    assert svc.vaccinate_by(exposure) == date(2027, 1, 28)
    # No vaccination yet: refused, whatever the date.
    with pytest.raises(Refused) as excinfo:
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2027, 3, 1),
            now=at(date(2027, 3, 1)),
        )
    assert "must be vaccinated 1 month before release" in refusal(excinfo)
    # Vaccinated January 31: one month later is February 28 as well.
    svc.exposure_prerelease_vaccination(
        exposure=exposure,
        actor=officer,
        vaccinated_on=date(2027, 1, 31),
        now=at(date(2027, 1, 31)),
    )
    exposure.refresh_from_db()
    assert exposure.earliest_release_on == date(2027, 2, 28)
    with pytest.raises(Refused) as excinfo:
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2027, 2, 27),
            now=at(date(2027, 2, 27)),
        )
    assert "Feb 28, 2027" in refusal(excinfo)
    with pytest.raises(Refused) as excinfo:  # the vet's report to the officer and the Board
        svc.exposure_release(
            exposure=exposure,
            actor=officer,
            released_on=date(2027, 2, 28),
            now=at(date(2027, 2, 28)),
        )
    assert "the day the officer received it" in refusal(excinfo)
    report(exposure, officer, date(2027, 2, 28))
    exposure.refresh_from_db()
    svc.exposure_release(
        exposure=exposure,
        actor=officer,
        released_on=date(2027, 2, 28),
        now=at(date(2027, 2, 28), 16),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.RELEASED


def test_a_late_vaccination_moves_the_earliest_release_past_the_quarantines_end(glencoe, officer):
    exposure = open_case(owned_dog(glencoe), officer, date(2026, 8, 31))
    refuse(exposure, officer, date(2026, 9, 1))
    exposure.refresh_from_db()
    assert exposure.period_ends_on == date(2027, 3, 1)
    svc.exposure_prerelease_vaccination(
        exposure=exposure,
        actor=officer,
        vaccinated_on=date(2027, 2, 15),
        now=at(date(2027, 2, 15)),
    )
    exposure.refresh_from_db()
    assert exposure.earliest_release_on == date(2027, 3, 15)  # max(Mar 1, Feb 15 + 1 month)
    assert "Mar 15, 2027" in exposure.release_basis


def test_a_quarantine_from_august_31_before_a_leap_year_ends_february_29(glencoe, officer):
    exposure = open_case(owned_dog(glencoe), officer, date(2027, 8, 31))
    refuse(exposure, officer, date(2027, 8, 31))
    exposure.refresh_from_db()
    assert exposure.period_ends_on == date(2028, 2, 29)
    assert svc.vaccinate_by(exposure) == date(2028, 1, 29)


def test_the_quarantine_cannot_begin_before_the_exposure(glencoe, officer):
    exposure = open_case(owned_dog(glencoe), officer, date(2026, 8, 31))
    with pytest.raises(Refused) as excinfo:
        refuse(
            exposure,
            officer,
            date(2026, 8, 30),
            now_on=date(2026, 9, 1),
            consent_on=date(2026, 8, 31),
        )
    assert excinfo.value.checks[0].field == "starts_on"


# --- 22(C)(2): another animal, unvaccinated ---------------------------------------------


def test_unvaccinated_other_needs_the_vets_determination_then_quarantine_without_vaccination(
    glencoe, officer
):
    pet = owned_dog(glencoe, species="other")
    exposure = open_case(
        pet,
        officer,
        date(2026, 8, 31),
        rabid_basis=RabidBasis.LABORATORY,
        rabid_basis_detail="UMN VDL: positive",
        rabid_species="bat",
    )
    assert exposure.path == ExposurePath.UNVACCINATED_OTHER
    quarantine = {
        "euthanize": False,
        "starts_on": date(2026, 9, 2),
        "supervising_veterinarian": "Dr. Vera Vet",
        "location": "Clinic isolation",
    }
    with pytest.raises(Refused) as excinfo:
        svc.exposure_dispose(
            exposure=exposure, actor=officer, now=at(date(2026, 9, 2)), **quarantine
        )
    assert "determination" in refusal(excinfo)
    svc.exposure_determine(
        exposure=exposure,
        actor=officer,
        determined_by="Vera Vet",
        determined_on=date(2026, 9, 1),
        now=at(date(2026, 9, 1)),
    )
    svc.exposure_dispose(exposure=exposure, actor=officer, now=at(date(2026, 9, 2)), **quarantine)
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.QUARANTINE
    assert exposure.period_ends_on == date(2027, 3, 2)
    assert svc.vaccinate_by(exposure) is None
    report(exposure, officer, date(2027, 3, 2))
    exposure.refresh_from_db()
    svc.exposure_release(
        exposure=exposure,
        actor=officer,
        released_on=date(2027, 3, 2),
        now=at(date(2027, 3, 2), 16),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.RELEASED


def test_unvaccinated_other_may_be_euthanized_after_the_determination(glencoe, officer):
    exposure = make_exposure(
        glencoe,
        officer,
        animal=owned_dog(glencoe, species="other"),
        path=ExposurePath.UNVACCINATED_OTHER,
        exposed_on=date(2026, 8, 31),
        determined_by="Vera Vet",
        determined_on=date(2026, 9, 1),
    )
    svc.exposure_dispose(
        exposure=exposure,
        actor=officer,
        euthanize=True,
        euthanized_on=date(2026, 9, 2),
        now=at(date(2026, 9, 2)),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.EUTHANIZED


def test_a_step_of_another_path_is_refused(glencoe, officer):
    exposure = make_exposure(glencoe, officer)  # vaccinated dog
    with pytest.raises(Refused) as excinfo:
        svc.exposure_determine(
            exposure=exposure,
            actor=officer,
            determined_by="Vera Vet",
            determined_on=exposure.exposed_on,
        )
    assert "not a step of this path" in refusal(excinfo)


# --- Non-compliance and the Hearing Examiner --------------------------------------------


def quarantined(glencoe, officer):
    exposure = open_case(owned_dog(glencoe), officer, date(2026, 8, 31))
    refuse(exposure, officer, date(2026, 8, 31))
    exposure.refresh_from_db()
    return exposure


def test_noncompliance_opens_the_hearing_and_euthanasia_follows_only_the_decision(glencoe, officer):
    exposure = quarantined(glencoe, officer)
    hearing = svc.exposure_noncompliance(
        exposure=exposure,
        actor=officer,
        noted_on=date(2026, 10, 1),
        details="The dog was found loose outside the enclosure",
        scheduled_for=at(date(2026, 10, 9), 14),
        place="City Hall",
        now=at(date(2026, 10, 1), 15),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.NONCOMPLIANCE
    assert hearing.citation == "Glencoe 701 Subd. 22(A), 22(C)(2)" and hearing.notice_id
    with pytest.raises(Refused) as excinfo:  # neither held nor waived yet
        svc.exposure_hearing_decide(
            exposure=exposure,
            actor=officer,
            outcome=HearingOutcome.EUTHANIZE,
            euthanized_on=date(2026, 10, 2),
            examiner_name="H. Examiner",
            decided_on=date(2026, 10, 2),
            reasons="Loose twice",
            now=at(date(2026, 10, 2)),
        )
    assert excinfo.value.checks[0].field == "held_on"
    with pytest.raises(Refused):  # release is not an outcome here
        svc.exposure_hearing_decide(
            exposure=exposure,
            actor=officer,
            outcome=HearingOutcome.RELEASE,
            examiner_name="H. Examiner",
            held_on=date(2026, 10, 9),
            decided_on=date(2026, 10, 9),
            reasons="x",
            now=at(date(2026, 10, 9), 16),
        )
    svc.exposure_hearing_decide(
        exposure=exposure,
        actor=officer,
        outcome=HearingOutcome.EUTHANIZE,
        euthanized_on=date(2026, 10, 10),
        examiner_name="H. Examiner",
        held_on=date(2026, 10, 9),
        decided_on=date(2026, 10, 9),
        reasons="Loose twice",
        now=at(date(2026, 10, 10), 16),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.EUTHANIZED
    assert exposure.euthanized_on == date(2026, 10, 10)


def test_a_waived_hearing_can_continue_the_quarantine(glencoe, officer):
    exposure = quarantined(glencoe, officer)
    svc.exposure_noncompliance(
        exposure=exposure,
        actor=officer,
        noted_on=date(2026, 10, 1),
        details="Enclosure door left open",
        scheduled_for=at(date(2026, 10, 9), 14),
        now=at(date(2026, 10, 1), 15),
    )
    exposure.refresh_from_db()
    svc.exposure_hearing_waived(
        exposure=exposure,
        actor=officer,
        waived_on=date(2026, 10, 3),
        waiver_file=order_pdf("waiver.pdf"),
        now=at(date(2026, 10, 3)),
    )
    svc.exposure_hearing_decide(
        exposure=exposure,
        actor=officer,
        outcome=HearingOutcome.CONTINUE,
        examiner_name="H. Examiner",
        decided_on=date(2026, 10, 5),
        reasons="Door repaired",
        now=at(date(2026, 10, 5)),
    )
    exposure.refresh_from_db()
    assert exposure.status == ExposureStatus.QUARANTINE
    assert exposure.hearings.get().outcome == HearingOutcome.CONTINUE


def test_noncompliance_is_not_a_step_of_the_vaccinated_paths(glencoe, officer):
    exposure = make_exposure(glencoe, officer, status=ExposureStatus.OBSERVATION)
    with pytest.raises(Refused):
        svc.exposure_noncompliance(
            exposure=exposure,
            actor=officer,
            noted_on=exposure.exposed_on,
            details="x",
            scheduled_for=datetime(2028, 7, 1, 10, tzinfo=at(date(2028, 7, 1)).tzinfo),
        )


def test_the_consent_form_pdf_states_the_choice_and_the_months(glencoe, officer):
    exposure = open_case(owned_dog(glencoe, name="Fritz"), officer, date(2026, 8, 31))
    document = svc.consent_form_issue(exposure=exposure, actor=officer, now=at(date(2026, 9, 1)))
    text = pdf_text(document.file.read())
    assert "Consent to or refusal of euthanasia" in text
    assert "6 months" in text and "Glencoe 701 Subd. 22(A)" in text and "Fritz" in text
