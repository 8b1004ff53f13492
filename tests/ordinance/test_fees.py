"""Fees: council resolutions by effective date, ordinance-fixed amounts from the profile."""

from datetime import date
from decimal import Decimal

import pytest

from demo.jurisdictions import ensure_demo_jurisdictions
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import FeeScheduleEntry, RuleValue
from ordinance.rules import RuleUnavailable


def test_a_council_fee_is_the_resolution_in_force_on_the_date(north_branch):
    # FEE-01: NB Sec. 6-62 leaves the dog license fee to council resolution.
    fee = fee_amount(north_branch, "dog_license", on=date(2025, 12, 31))
    assert (fee.amount, fee.authority) == (Decimal("15.00"), "Demo Res. 2025-01")
    fee = fee_amount(north_branch, "dog_license", on=date(2026, 1, 1))
    assert (fee.amount, fee.effective_from) == (Decimal("18.00"), date(2026, 1, 1))
    assert fee.display() == "$18.00"


def test_a_fee_the_ordinance_fixes_comes_from_the_profile_with_its_section(north_branch, glencoe):
    tag = fee_amount(north_branch, "duplicate_tag", on=date(2026, 3, 1))
    assert (tag.amount, tag.authority) == (Decimal("3.00"), "North Branch Sec. 6-63")
    transfer = fee_amount(north_branch, "transfer", on=date(2026, 3, 1))
    assert (transfer.amount, transfer.authority) == (Decimal("5.00"), "North Branch Sec. 6-65(d)")
    release = fee_amount(glencoe, "release", on=date(2026, 3, 1))
    assert (release.amount, release.authority) == (Decimal("15.00"), "Glencoe 701 Subd. 13(A)")
    assert fee_amount(glencoe, "unlicensed", on=date(2026, 3, 1)).amount == Decimal("75.00")


def test_no_resolution_in_force_refuses_and_says_where(north_branch, glencoe):
    with pytest.raises(FeeNotSet) as err:
        fee_amount(north_branch, "dog_license", on=date(2024, 12, 31))
    assert isinstance(err.value, RuleUnavailable)
    assert "North Branch Sec. 6-62" in str(err.value)
    with pytest.raises(FeeNotSet, match="fee schedule"):
        fee_amount(glencoe, "boarding_daily", on=date(2026, 3, 1))
    with pytest.raises(FeeNotSet):
        fee_amount(north_branch, "release", on=date(2026, 3, 1))  # not in NB's ordinance


def test_a_council_may_set_a_fee_the_profile_does_not_list(glencoe):
    FeeScheduleEntry.objects.create(
        jurisdiction=glencoe,
        code="microchip_scan",
        description="Microchip scan",
        amount=Decimal("5.00"),
        effective_from=date(2026, 1, 1),
        resolution="Res. 2026-3",
    )
    assert fee_amount(glencoe, "microchip_scan", on=date(2026, 2, 1)).authority == "Res. 2026-3"


def test_demo_setup_is_idempotent_and_cheap(cities, django_assert_max_num_queries):
    rules, fees = RuleValue.objects.count(), FeeScheduleEntry.objects.count()
    with django_assert_max_num_queries(16):
        ensure_demo_jurisdictions()
    assert (RuleValue.objects.count(), FeeScheduleEntry.objects.count()) == (rules, fees)
    assert FeeScheduleEntry.objects.filter(resolution__startswith="Demo Res.").count() == fees
