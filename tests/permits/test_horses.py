"""Horse permits (Glencoe 702; HOR-01..06, FEE-13): the standards the system checks,
the Council's approval before issue, the April 15 expiry and the fee."""

from datetime import date
from decimal import Decimal

import pytest

from notices.services import document_pdf
from ordinance.amendments import rule_amend
from ordinance.refusals import Refused
from permits.models import HorseStatus
from permits.services import horses
from tests.pdf import pdf_text

from .helpers import approved_horse_permit, horse_fields, issued_horse_permit, set_horse_fee

pytestmark = pytest.mark.django_db


@pytest.mark.clock("2026-05-01T09:00")
def test_three_horses_on_six_tenths_of_an_acre_are_refused_with_702e(glencoe, glencoe_clerk):
    with pytest.raises(Refused) as refused:
        horses.horse_apply(jurisdiction=glencoe, actor=glencoe_clerk, **horse_fields(horses=3))
    (check,) = refused.value.checks
    assert "at most 2 for 0.6 acre" in check.message
    assert check.citation == "Glencoe 702(e)" and check.field == "horses"


@pytest.mark.clock("2026-05-01T09:00")
def test_colts_ponies_and_mules_count_toward_702e(glencoe, glencoe_clerk):
    with pytest.raises(Refused) as refused:
        horses.horse_apply(
            jurisdiction=glencoe, actor=glencoe_clerk, **horse_fields(horses=1, ponies=1, mules=1)
        )
    assert refused.value.checks[0].citation == "Glencoe 702(e)"


@pytest.mark.clock("2026-05-01T09:00")
def test_two_horses_on_six_tenths_of_an_acre_pass_and_wait_for_the_checks(glencoe, glencoe_clerk):
    permit = horses.horse_apply(jurisdiction=glencoe, actor=glencoe_clerk, **horse_fields())
    assert permit.status == HorseStatus.APPLIED and permit.animal_count == 2


@pytest.mark.parametrize(
    "extra, field, section",
    [
        ({"pasture_acres": Decimal("0.2"), "horses": 0, "ponies": 0}, "pasture_acres", "702(a)"),
        ({"residence_distance_ft": 29}, "residence_distance_ft", "702(d)"),
        ({"fence_material": "barbed wire"}, "fence_material", "702(b)"),
        ({"fence_material": "electric"}, "fence_material", "702(b)"),
    ],
)
@pytest.mark.clock("2026-05-01T09:00")
def test_each_standard_is_refused_with_its_section_next_to_its_field(
    glencoe, glencoe_clerk, extra, field, section
):
    with pytest.raises(Refused) as refused:
        horses.horse_apply(jurisdiction=glencoe, actor=glencoe_clerk, **horse_fields(**extra))
    checks = {c.field: c for c in refused.value.checks}
    assert checks[field].citation == f"Glencoe {section}"


@pytest.mark.clock("2026-05-01T09:00")
def test_exactly_30_feet_and_a_quarter_acre_for_one_horse_pass(glencoe, glencoe_clerk):
    permit = horses.horse_apply(
        jurisdiction=glencoe,
        actor=glencoe_clerk,
        **horse_fields(pasture_acres=Decimal("0.25"), horses=1, residence_distance_ft=30),
    )
    assert permit.pk


def test_north_branch_has_no_horse_permit(north_branch, clerk):
    with pytest.raises(Refused) as refused:
        horses.horse_apply(jurisdiction=north_branch, actor=clerk, **horse_fields())
    assert "no such permit" in str(refused.value)


def test_the_council_must_approve_before_the_clerk_issues(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = horses.horse_apply(
        jurisdiction=glencoe, actor=glencoe_clerk, on=date(2026, 5, 1), **horse_fields()
    )
    with pytest.raises(Refused, match="it cannot become issued"):
        horses.horse_issue(permit=permit, actor=glencoe_clerk)
    # Only after every person check is met does it go to the Council.
    permit = horses.horse_checks_record(
        permit=permit,
        shelter_ok=True,
        grazing_ok=False,
        sanitation_ok=True,
        note="",
        actor=glencoe_clerk,
    )
    assert permit.status == HorseStatus.APPLIED
    with pytest.raises(Refused):
        horses.horse_council_decide(
            permit=permit,
            decision="approved",
            council_date=date(2026, 5, 1),
            resolution_number="Res. 1",
            reasons="",
            actor=glencoe_clerk,
        )


@pytest.mark.parametrize(
    "issued_on, expires_on",
    [
        (date(2026, 5, 1), date(2027, 4, 15)),
        (date(2026, 12, 31), date(2027, 4, 15)),
        (date(2027, 1, 2), date(2027, 4, 15)),
        (date(2027, 4, 14), date(2027, 4, 15)),
        (date(2027, 4, 16), date(2028, 4, 15)),
    ],
)
def test_a_permit_expires_on_the_ensuing_april_15(glencoe, issued_on, expires_on):
    term = horses.horse_term(glencoe, issued_on=issued_on)
    assert term.expires_on == expires_on and term.citation == "Glencoe 702"


def test_issued_on_april_15_itself_follows_the_profile_setting(glencoe, administrator):
    assert horses.horse_term(glencoe, issued_on=date(2027, 4, 15)).expires_on == date(2028, 4, 15)
    rule_amend(
        jurisdiction=glencoe,
        key="horse_permit_expiry_same_day",
        value=True,
        effective_from=date(2027, 1, 1),
        ordinance_ref="Ord. No. 612",
        actor=administrator,
    )
    assert horses.horse_term(glencoe, issued_on=date(2027, 4, 15)).expires_on == date(2027, 4, 15)
    assert horses.horse_term(glencoe, issued_on=date(2027, 4, 16)).expires_on == date(2028, 4, 15)


def test_a_permit_issued_in_march_warns_that_it_lasts_weeks(glencoe):
    march = horses.horse_term(glencoe, issued_on=date(2027, 3, 10))
    assert march.short and "it lasts only 5 weeks" in march.warning()
    assert "Glencoe 702" in march.warning()
    may = horses.horse_term(glencoe, issued_on=date(2026, 5, 1))
    assert not may.short and may.warning() == ""


def test_issuing_refuses_until_the_fee_is_set_naming_the_section(glencoe, glencoe_clerk):
    permit = approved_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    with pytest.raises(Refused) as refused:
        horses.horse_issue(permit=permit, actor=glencoe_clerk)
    assert "Glencoe 702" in str(refused.value) and "not set" in str(refused.value)
    permit.refresh_from_db()
    assert permit.status == HorseStatus.APPROVED and not permit.number
    set_horse_fee(glencoe, "25.00")
    permit = horses.horse_issue(permit=permit, actor=glencoe_clerk)
    assert permit.fee_amount == Decimal("25.00")
    assert permit.fee_authority == "Council Res. 2026-14"


def test_the_city_may_record_no_fee(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    assert permit.status == HorseStatus.ISSUED and permit.fee_amount == Decimal("0.00")


def test_issued_on_may_1_it_expires_next_april_15_and_the_pdf_says_both(glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "0.00")
    permit = issued_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    assert permit.issued_on == date(2026, 5, 1) and permit.expires_on == date(2027, 4, 15)
    assert permit.remind_on == date(2027, 3, 16)  # 30 days before (the profile's default)
    assert permit.number == "H2026-001"
    first = document_pdf(permit.document)
    text = pdf_text(first)
    assert "May 1, 2026" in text and "April 15, 2027" in text
    assert "Glencoe 702" in text and "Res. 2026-31" in text and "H2026-001" in text
    assert document_pdf(permit.document) == first  # a re-print is the archived bytes


def test_a_permit_is_never_deleted(glencoe, glencoe_clerk):
    from kernel.kept import RecordKept
    from permits.models import HorsePermit

    permit = horses.horse_apply(
        jurisdiction=glencoe, actor=glencoe_clerk, on=date(2026, 5, 1), **horse_fields()
    )
    with pytest.raises(RecordKept, match="Horse permits are kept"):
        permit.delete()
    with pytest.raises(RecordKept):
        HorsePermit.objects.all().delete()


def test_what_702_leaves_unset_is_said_with_its_section(glencoe):
    lines = {
        str(line["label"]): line for line in horses.horse_silences(glencoe, on=date(2026, 5, 1))
    }
    assert set(lines) == {"Fee", "Renewal", "Revocation"}
    for line in lines.values():
        assert not line["set"] and line["citation"] == "Glencoe 702"
        assert line["value"] == "The city has not set it."
