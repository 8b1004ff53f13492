"""The profile data files: every Appendix E parameter, quotes that exist in the texts."""

import re

import pytest

from ordinance.profiles import available_profiles, get_profile

# rules.md Appendix E: key -> (North Branch has it, Glencoe has it). "n/a" = absent.
APPENDIX_E = {
    "dog_license_enabled": (True, True),
    "license_age_threshold": (True, False),
    "adult_age_threshold": (True, True),
    "vaccination_required_age": (True, True),
    "custody_days_for_owner": (True, True),
    "temp_visitor_exemption_days": (True, False),
    "license_apply_within_days_of_acquisition": (True, False),
    "rabies_cert_max_months_before_expiry": (True, False),
    "license_expiry": (True, False),
    "kennel_license_expiry": (True, True),
    "address_change_notice_days": (True, False),
    "renewal_window_days_before_term": (True, False),
    "renewal_window_days_after_term_start": (True, False),
    "late_penalty_rate": (True, False),
    "new_subject_grace_days": (True, False),
    "dog_license_fee": (True, True),
    "kennel_license_fee": (True, True),
    "duplicate_tag_fee": (True, False),
    "transfer_fee": (True, False),
    "tag_legend": (True, False),
    "max_adult_dogs_without_kennel": (True, True),
    "max_adult_cats_without_kennel": (True, True),
    "max_total_dogs_cats_without_kennel": (False, True),
    "kennel_min_dogs_commercial": (True, True),
    "kennel_requires_cup": (True, True),
    "kennel_denial_appeal_days": (False, True),
    "max_potbellied_pigs_per_lot": (False, True),
    "max_pigeons_per_lot": (False, True),
    "leash_max_ft": (True, True),
    "leash_proximity_ft": (False, True),
    "barking_continuous_min": (True, True),
    "barking_intermittent_min": (False, True),
    "barking_audible_distance_ft": (True, True),
    "barking_seizure_prior_complaints_min": (False, True),
    "impound_hold_business_days": (True, True),
    "impound_notice_posting_days": (False, True),
    "impound_notice_locations": (False, True),
    "impound_record_retention_months": (True, True),
    "impound_record_party_age_months": (False, True),
    "release_fee": (False, True),
    "unlicensed_fee": (False, True),
    "boarding_fee_daily": (True, True),
    "impounding_fee": (True, True),
    "immunization_fee": (False, True),
    "nb_spay_certificate_days": (True, False),
    "sterilize_by_age_months": (False, True),
    "sterilize_within_days": (False, True),
    "sterilization_deposit": (False, True),
    "sterilization_admin_fee": (False, True),
    "sterilization_fine_cap": (False, True),
    "dd_contest_days": (False, True),
    "dd_compliance_days": (False, True),
    "dd_appeal_days": (False, True),
    "dd_panel_council_members": (False, True),
    "dd_panel_electors": (False, True),
    "dd_panel_majority": (False, True),
    "dd_min_bond": (False, True),
    "dd_min_insurance": (False, True),
    "dd_annual_fee_cap": (False, True),
    "dd_annual_fee": (False, True),
    "dd_microchip_statute": (False, True),
    "dd_review_first_after_months": (False, True),
    "dd_review_frequency": (False, True),
    "dd_death_transfer_notice_days": (False, True),
    "dd_reclaim_days": (False, True),
    "appeal_stays_compliance": (False, True),
    "owner_bite_report_hours": (True, False),
    "bite_confinement_days": (True, True),
    "quarantine_leash_max_ft": (True, False),
    "exposure_unvaccinated_quarantine_months": (False, True),
    "exposure_prerelease_vaccination_months": (False, True),
    "exposure_vaccinated_dogcat_observation_days": (False, True),
    "exposure_vaccinated_other_enclosure_days": (False, True),
    "vaccinate_after_min_age_days": (False, True),
    "vaccinate_new_arrival_days": (False, True),
    "deemed_rabid_species": (False, True),
    "wild_temp_cup_max_days": (False, True),
    "horse_min_pasture_acres": (False, True),
    "horse_acres_per_animal": (False, True),
    "horse_pasture_setback_ft": (False, True),
    "horse_fence_forbidden": (False, True),
    "horse_permit_expiry": (False, True),
    "horse_permit_fee": (False, True),
    "business_calendar": (True, True),
    "nb_6_75_scope": (True, False),
    "gl_harbor_days_mode": (False, True),
    "dd_seize_on_later_breach": (False, True),
    "gl_release_report_for_observation": (False, True),
}

# Appendix E NULLs: present with no value (a required setting with no default).
BLANKS = {
    "north_branch": {
        "dog_license_fee",
        "kennel_license_fee",
        "boarding_fee_daily",
        "impounding_fee",
        "business_calendar",
    },
    "glencoe": {
        "kennel_license_expiry",
        "dog_license_fee",
        "kennel_license_fee",
        "kennel_min_dogs_commercial",
        "boarding_fee_daily",
        "impounding_fee",
        "immunization_fee",
        "sterilization_deposit",
        "sterilization_admin_fee",
        "dd_annual_fee_cap",
        "dd_annual_fee",
        "dd_microchip_statute",
        "appeal_stays_compliance",
        "horse_permit_fee",
        "business_calendar",
    },
}


def test_both_profiles_ship():
    assert {"north_branch", "glencoe"} <= set(available_profiles())


@pytest.mark.parametrize("profile_key,column", [("north_branch", 0), ("glencoe", 1)])
def test_every_appendix_e_parameter_is_present_exactly_where_the_city_has_it(profile_key, column):
    values = get_profile(profile_key).values
    missing = [k for k, has in APPENDIX_E.items() if has[column] and k not in values]
    extra = [k for k, has in APPENDIX_E.items() if not has[column] and k in values]
    assert not missing and not extra, (missing, extra)


@pytest.mark.parametrize("profile_key", ["north_branch", "glencoe"])
def test_blanks_in_the_text_are_present_with_no_value(profile_key):
    values = get_profile(profile_key).values
    blank = {k for k, spec in values.items() if spec.blank}
    assert BLANKS[profile_key] <= blank


@pytest.mark.parametrize("profile_key", ["north_branch", "glencoe"])
def test_every_quote_is_verbatim_in_the_ordinance_text(profile_key):
    profile = get_profile(profile_key)
    text = re.sub(r"\s+", " ", profile.text())
    city = "North Branch" if profile_key == "north_branch" else "Glencoe"
    for spec in profile.values.values():
        assert spec.citation.startswith(city), spec.key
        assert spec.rule_ids, spec.key
        if spec.quote:
            assert re.sub(r"\s+", " ", spec.quote) in text, spec.key
            assert profile.passage(spec.quote).quote in text
        else:  # only software defaults that the text does not contain
            assert "not in ordinance" in spec.citation, spec.key
    for section in profile.sections.values():  # rules that set no value
        assert section.citation.startswith(city), section.rule_id
        assert re.sub(r"\s+", " ", section.quote) in text, section.rule_id


def test_a_rule_cites_the_citys_own_section_or_none():
    """Refusals cite the city's section for a rule ID, never rules.md."""
    nb, gl = get_profile("north_branch"), get_profile("glencoe")
    assert nb.section("LIC-14") == "North Branch Sec. 6-64"  # a [sections] entry
    assert nb.section("LIC-12") == "North Branch Sec. 6-65(d)"  # the transfer fee's
    assert gl.section("KEN-08") == "Glencoe 701 Subd. 4(F)"
    assert gl.section("KEN-07") == "Glencoe 701 Subd. 4(E)"
    assert nb.section("KEN-08") == ""  # North Branch's ordinance has no revocation


def test_the_values_the_licensing_code_reads_are_as_the_brief_fixes_them():
    nb, gl = get_profile("north_branch").values, get_profile("glencoe").values
    assert nb["license_age_months"].value == 6 and nb["license_age_comparison"].value == "gt"
    assert nb["adult_age_comparison"].value == "gte" and gl["adult_age_comparison"].value == "gt"
    assert nb["kennel_license_expiry"].value == (12, 31) and gl["kennel_license_expiry"].blank
    assert nb["license_apply_within_days_of_acquisition"].unit == "days"
    assert nb["rabies_cert_max_months_before_expiry"].unit == "months"
    assert nb["tag_legend"].value == "NORTH BRANCH DOG TAG"
    assert gl["kennel_denial_appeal_days"].value == 10
    assert gl["kennel_review_steps"].value == [
        "City Administrator review",
        "Planning Division zoning referral",
        "Issue or deny",
    ]
    assert nb["kennel_review_steps"].value[0] == "CUP approved by Council"
    assert nb["kennel_min_dogs_commercial"].value == 4 and nb["kennel_requires_cup"].value
    assert nb["impound_hold_business_days"].unit == "business_days"
    fees = get_profile("north_branch").fees
    assert fees["duplicate_tag"].rule == "duplicate_tag_fee"
    assert fees["transfer"].rule == "transfer_fee"
    gl_fees = get_profile("glencoe").fees
    assert gl_fees["release"].rule == "release_fee"
    assert gl_fees["unlicensed"].rule == "unlicensed_fee"
