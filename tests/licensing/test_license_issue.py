"""Issuing dog licenses at the edges of the ordinance's dates (LIC-05, LIC-07, LIC-13, FEE-03)."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from licensing.models import License, LicenseStatus, Receipt, TagStatus
from licensing.services.assessment import license_assess
from licensing.services.licenses import license_issue
from licensing.services.voids import receipt_void
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, tzinfo=CHICAGO)


@pytest.fixture
def dog(north_branch):
    animal = AnimalFactory(
        jurisdiction=north_branch, date_of_birth=date(2022, 5, 1), acquired_on=date(2022, 7, 15)
    )
    RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2025, 6, 1))
    return animal


@pytest.fixture
def stock(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    return TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, year=2027, first_number=1, last_number=20
    )


def issue(dog, clerk, on, **kw):
    return license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=on, method="cash", now=at(on), **kw
    )


def test_issue_gives_license_tag_receipt_and_december_31_expiry(dog, clerk, stock):
    result = issue(dog, clerk, date(2026, 1, 15))
    lic = result.license
    assert (lic.term_start, lic.expires_on) == (date(2026, 1, 1), date(2026, 12, 31))
    assert lic.status == LicenseStatus.ACTIVE and not lic.late_penalty
    assert (result.tag.number, result.tag.year, result.tag.status) == (1, 2026, TagStatus.ISSUED)
    assert result.receipt.number == 1
    lines = list(result.receipt.lines.values_list("code", "amount", "authority"))
    assert lines == [("dog_license", Decimal("18.00"), lines[0][2])]
    assert lines[0][2]  # the authority (council resolution) is printed
    assert result.receipt.total == Decimal("18.00")
    from ordinance.models import Event

    assert Event.objects.for_object(lic).filter(action="licensing.license.issued").exists()


@pytest.mark.parametrize("on, late", [(date(2026, 1, 31), False), (date(2026, 2, 1), True)])
def test_late_penalty_after_day_30_of_the_term(dog, clerk, stock, on, late):
    result = issue(dog, clerk, on)
    assert result.license.late_penalty is late
    expected = Decimal("27.00") if late else Decimal("18.00")  # 50 % of $18 (Sec. 6-65(c))
    assert result.receipt.total == expected
    if late:
        penalty = result.receipt.lines.get(code="late_penalty")
        assert "6-65(c)" in penalty.authority


def test_new_subject_grace_waives_the_penalty(north_branch, clerk, stock):
    dog = AnimalFactory(
        jurisdiction=north_branch, date_of_birth=date(2025, 1, 1), acquired_on=date(2026, 3, 1)
    )
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 3, 2))
    assert not license_assess(animal=dog, owner=dog.owner, on=date(2026, 3, 31)).late_penalty
    assert license_assess(animal=dog, owner=dog.owner, on=date(2026, 4, 1)).late_penalty


def test_puppy_becomes_subject_the_day_after_six_months(north_branch, clerk, stock):
    # Born 2025-09-10: over six months from 2026-03-11 (strictly "over", LIC-01).
    dog = AnimalFactory(
        jurisdiction=north_branch, date_of_birth=date(2025, 9, 10), acquired_on=date(2025, 11, 1)
    )
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 1, 10))
    a = license_assess(animal=dog, owner=dog.owner, on=date(2026, 4, 10))
    assert a.became_subject_on == date(2026, 3, 11)
    assert not a.late_penalty
    assert license_assess(animal=dog, owner=dog.owner, on=date(2026, 4, 11)).late_penalty


def test_clerk_entered_subject_date_counts(dog, clerk, stock):
    a = license_assess(
        animal=dog, owner=dog.owner, on=date(2026, 5, 1), subject_on=date(2026, 4, 15)
    )
    assert not a.late_penalty


@pytest.mark.parametrize("on, term_year", [(date(2025, 12, 1), 2025), (date(2025, 12, 2), 2026)])
def test_renewal_window_opens_december_2(dog, clerk, on, term_year):
    a = license_assess(animal=dog, owner=dog.owner, on=on)
    assert a.expires_on == date(term_year, 12, 31)
    assert a.is_renewal_window is (term_year == 2026)


@pytest.mark.parametrize(
    "vaccinated_on, ok", [(date(2024, 12, 31), True), (date(2024, 12, 30), False)]
)
def test_rabies_24_months_before_expiry(north_branch, clerk, stock, vaccinated_on, ok):
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=vaccinated_on)
    if ok:
        license = issue(dog, clerk, date(2026, 1, 10)).license
        assert license.vaccination.vaccinated_on == vaccinated_on
    else:
        with pytest.raises(Refused) as exc:
            issue(dog, clerk, date(2026, 1, 10))
        text = str(exc.value)
        assert "Dec 31, 2024" in text and "6-61" in text
        assert not License.objects.exists() and not Receipt.objects.exists()


def test_vaccination_after_today_does_not_count(north_branch, clerk, stock):
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 2, 1))
    with pytest.raises(Refused):
        issue(dog, clerk, date(2026, 1, 10))


def test_glencoe_does_not_issue(glencoe, glencoe_clerk):
    dog = AnimalFactory(jurisdiction=glencoe)
    a = license_assess(animal=dog, owner=dog.owner, on=date(2026, 1, 10))
    assert not a.enabled and not a.can_issue
    assert "701 Subd. 2(D)" in a.checks[0].citation
    with pytest.raises(Refused):
        issue(dog, glencoe_clerk, date(2026, 1, 10))


def test_second_license_for_the_same_term_is_refused(dog, clerk, stock):
    issue(dog, clerk, date(2026, 1, 15))
    with pytest.raises(Refused, match="Already licensed"):
        issue(dog, clerk, date(2026, 1, 16))


def test_typed_tag_must_be_available(dog, clerk, stock):
    assert issue(dog, clerk, date(2026, 1, 15), tag_number=7).tag.number == 7
    other = AnimalFactory(jurisdiction=dog.jurisdiction, owner=dog.owner, premises=dog.premises)
    RabiesVaccinationFactory(animal=other, vaccinated_on=date(2025, 6, 1))
    with pytest.raises(Refused, match="not an available tag"):
        issue(other, clerk, date(2026, 1, 15), tag_number=7)
    with pytest.raises(Refused, match="not an available tag"):
        issue(other, clerk, date(2026, 1, 15), tag_number=999)


def test_no_stock_refuses(dog, clerk):
    with pytest.raises(Refused, match="No 2026 tags"):
        issue(dog, clerk, date(2026, 1, 15))


def test_void_creates_negative_receipt_and_voids_license_and_tag(dog, clerk, stock):
    result = issue(dog, clerk, date(2026, 1, 15))
    void = receipt_void(
        receipt=result.receipt, actor=clerk, reason="Wrong dog", now=at(date(2026, 1, 16))
    )
    assert void.number == result.receipt.number + 1 and void.voids == result.receipt
    assert void.total == -result.receipt.total
    assert list(void.lines.values_list("amount", flat=True)) == [Decimal("-18.00")]
    result.license.refresh_from_db()
    result.tag.refresh_from_db()
    assert result.license.status == LicenseStatus.VOID
    assert result.tag.status == TagStatus.VOID
    assert result.tag.history.first().status == TagStatus.VOID  # audit history kept (REC-18)
    with pytest.raises(Refused):
        receipt_void(receipt=result.receipt, actor=clerk, reason="again")


def test_an_application_missing_breed_and_color_is_refused_with_the_section(dog, clerk, stock):
    """LIC-04 (NB Sec. 6-61): the application states the dog's breed, color, age and sex."""
    dog.breed, dog.color = "", ""
    dog.save()
    assessment = license_assess(animal=dog, owner=dog.owner, on=date(2026, 1, 15))
    refusal = next(c for c in assessment.refusals if c.label == "Application")
    assert "the breed" in refusal.message and "the color" in refusal.message
    assert refusal.citation == "North Branch Sec. 6-61"
    with pytest.raises(Refused):
        issue(dog, clerk, date(2026, 1, 15))


def test_glencoe_profile_lists_no_application_fields(glencoe):
    from licensing.services.assessment import application_check

    animal = AnimalFactory(jurisdiction=glencoe, breed="")
    assert application_check(animal, animal.owner, on=date(2026, 1, 15)) is None
