"""Rules as data: typed values with citations, effective-dated amendments, blanks (App. E)."""

from datetime import date
from decimal import Decimal

import pytest

from ordinance.amendments import load_profile, rule_amend
from ordinance.kinds import MonthDay
from ordinance.models import Event, RuleValue
from ordinance.rules import (
    RuleNotInOrdinance,
    RuleNotSet,
    RuleUnavailable,
    rule_in_force,
    rules_in_force,
)

TODAY = date(2026, 3, 15)


def test_the_same_key_reads_each_citys_own_value_and_section(north_branch, glencoe):
    nb = rule_in_force(north_branch, "max_adult_dogs_without_kennel", on=TODAY)
    gl = rule_in_force(glencoe, "max_adult_dogs_without_kennel", on=TODAY)
    assert (nb.value, nb.citation, nb.rule_ids) == (3, "North Branch Sec. 6-29", ("KEN-01",))
    assert (gl.value, gl.citation) == (2, "Glencoe 701 Subd. 4(A)")
    assert nb.ordinance_ref == "Ord. No. 230-15" and nb.effective_from == date(2015, 9, 22)
    assert gl.effective_from == date(2011, 2, 22)


def test_values_come_back_typed_and_display_in_plain_english(north_branch, glencoe):
    hold = rule_in_force(north_branch, "impound_hold_business_days", on=TODAY)
    assert hold.value == 5 and hold.unit == "business_days"
    assert hold.display() == "5 business days"
    fee = rule_in_force(north_branch, "duplicate_tag_fee", on=TODAY)
    assert fee.value == Decimal("3.00") and fee.display() == "$3.00"
    penalty = rule_in_force(north_branch, "late_penalty_rate", on=TODAY)
    assert penalty.value == Decimal("0.50") and penalty.display() == "50%"
    expiry = rule_in_force(north_branch, "license_expiry", on=TODAY)
    assert expiry.value == MonthDay(12, 31) == (12, 31)
    assert expiry.value.on_year(2026) == date(2026, 12, 31)
    assert expiry.display() == "December 31"
    assert rule_in_force(north_branch, "dog_license_enabled", on=TODAY).value is True
    assert rule_in_force(glencoe, "dog_license_enabled", on=TODAY).value is False
    assert rule_in_force(north_branch, "licensed_species", on=TODAY).value == ["dog"]
    assert rule_in_force(glencoe, "licensed_species", on=TODAY).value == []
    assert (
        rule_in_force(north_branch, "rabies_cert_max_months_before_expiry", on=TODAY).display()
        == "24 months"
    )


def test_age_comparisons_follow_each_text_as_printed(north_branch, glencoe):
    # DEF-01: NB "six months of age or older" (Sec. 6-28) vs GL "over the age of six months".
    assert rule_in_force(north_branch, "adult_age_comparison", on=TODAY).value == "gte"
    assert rule_in_force(glencoe, "adult_age_comparison", on=TODAY).value == "gt"
    assert rule_in_force(north_branch, "license_age_comparison", on=TODAY).value == "gt"


def test_a_value_the_city_does_not_have_is_not_in_ordinance(glencoe, north_branch):
    with pytest.raises(RuleNotInOrdinance) as err:
        rule_in_force(glencoe, "license_expiry", on=TODAY)
    assert isinstance(err.value, RuleUnavailable) and "Glencoe" in str(err.value)
    assert rule_in_force(glencoe, "transfer_fee", on=TODAY, optional=True) is None
    assert (
        rule_in_force(north_branch, "max_total_dogs_cats_without_kennel", on=TODAY, optional=True)
        is None
    )
    assert (
        rule_in_force(glencoe, "max_total_dogs_cats_without_kennel", on=TODAY, optional=True).value
        == 4
    )


def test_a_blank_refuses_and_names_the_section(glencoe):
    with pytest.raises(RuleNotSet) as err:
        rule_in_force(glencoe, "kennel_license_expiry", on=TODAY)
    assert str(err.value) == (
        "Kennel licenses expire on is blank in the ordinance (Glencoe 701 Subd. 4); "
        "an administrator must set it first."
    )
    assert err.value.citation == "Glencoe 701 Subd. 4"
    assert err.value.key == "kennel_license_expiry" and err.value.jurisdiction == glencoe
    with pytest.raises(RuleNotSet):
        rule_in_force(glencoe, "dd_annual_fee", on=TODAY, optional=True)


def test_there_is_no_value_before_the_ordinance_was_adopted(north_branch):
    with pytest.raises(RuleNotSet, match="no value in force on Sep 21, 2015"):
        rule_in_force(north_branch, "transfer_fee", on=date(2015, 9, 21))


def test_an_amendment_applies_from_its_effective_date_and_keeps_the_old_value(
    north_branch, administrator
):
    rule_amend(
        jurisdiction=north_branch,
        key="duplicate_tag_fee",
        value=Decimal("4.00"),
        effective_from=date(2026, 7, 1),
        ordinance_ref="Ord. No. 260-26",
        note="Council raised the fee",
        actor=administrator,
    )
    before = rule_in_force(north_branch, "duplicate_tag_fee", on=date(2026, 6, 30))
    after = rule_in_force(north_branch, "duplicate_tag_fee", on=date(2026, 7, 1))
    assert (before.value, before.ordinance_ref) == (Decimal("3.00"), "Ord. No. 230-15")
    assert (after.value, after.ordinance_ref) == (Decimal("4.00"), "Ord. No. 260-26")
    assert after.citation == "North Branch Sec. 6-63"  # the section carries over
    assert RuleValue.objects.filter(jurisdiction=north_branch, key="duplicate_tag_fee").count() == 2
    event = Event.objects.get(action="ordinance.rule.amended")
    assert event.actor == administrator and event.data["value"] == "4.00"


def test_filling_a_blank_makes_the_rule_usable_from_that_date(glencoe, administrator):
    rule_amend(
        jurisdiction=glencoe,
        key="kennel_license_expiry",
        value=MonthDay(12, 31),
        effective_from=date(2026, 1, 1),
        ordinance_ref="Ord. No. 601",
        actor=administrator,
    )
    with pytest.raises(RuleNotSet):
        rule_in_force(glencoe, "kennel_license_expiry", on=date(2025, 12, 31))
    assert rule_in_force(glencoe, "kennel_license_expiry", on=date(2026, 1, 1)).value == (12, 31)


def test_get_rules_reads_many_keys_with_one_query(north_branch, django_assert_num_queries):
    keys = [
        "impound_hold_business_days",
        "duplicate_tag_fee",
        "transfer_fee",
        "license_expiry",
        "late_penalty_rate",
        "renewal_window_days_before_term",
    ]
    with django_assert_num_queries(1):
        rules = rules_in_force(north_branch, keys, on=TODAY)
    assert set(rules) == set(keys) and rules["transfer_fee"].value == Decimal("5.00")


def test_get_rules_raises_like_get_rule(glencoe):
    with pytest.raises(RuleNotSet):
        rules_in_force(glencoe, ["release_fee", "dd_annual_fee"], on=TODAY)
    with pytest.raises(RuleNotInOrdinance):
        rules_in_force(glencoe, ["release_fee", "transfer_fee"], on=TODAY)


def test_loading_a_profile_again_changes_nothing(north_branch):
    count = RuleValue.objects.filter(jurisdiction=north_branch).count()
    history = RuleValue.history.count()
    assert load_profile(north_branch) == 0
    assert RuleValue.objects.filter(jurisdiction=north_branch).count() == count
    assert RuleValue.history.count() == history


def test_loading_restores_a_tampered_seed_value_but_keeps_an_administrators_correction(
    north_branch, administrator
):
    row = RuleValue.objects.get(
        jurisdiction=north_branch, key="transfer_fee", effective_from=date(2015, 9, 22)
    )
    row.value = "9.99"
    row.save()
    assert load_profile(north_branch) == 1
    assert rule_in_force(north_branch, "transfer_fee", on=TODAY).value == Decimal("5.00")
    rule_amend(
        jurisdiction=north_branch,
        key="transfer_fee",
        value=Decimal("6.00"),
        effective_from=date(2015, 9, 22),
        ordinance_ref="Ord. No. 230-15 (corrected)",
        actor=administrator,
    )
    assert load_profile(north_branch) == 0
    assert rule_in_force(north_branch, "transfer_fee", on=TODAY).value == Decimal("6.00")
