"""The Minnesota layer beneath the city profiles (rules.md Appendix H).

Statute values every Minnesota city inherits; an ordinance may make one stricter, never
weaker; the lookup answers with the value that governs and says why.
"""

from dataclasses import replace
from datetime import date, time

import pytest
from django.urls import reverse

from ordinance import kinds
from ordinance.amendments import load_profile, rule_amend, state_rule_amend
from ordinance.models import Event, Jurisdiction, RuleValue
from ordinance.profiles import (
    ProfileError,
    _build_state,
    available_profiles,
    get_profile,
    get_state_layer,
)
from ordinance.rules import (
    MEETS,
    ORDINANCE,
    STATE,
    STATE_ONLY,
    STRICTER,
    SUPERSEDED,
    RuleNotInOrdinance,
    RuleNotSet,
    RuleUnavailable,
    layers_from_rows,
    rule_citation,
    rule_in_force,
    rule_layers,
    rules_in_force,
)

TODAY = date(2026, 3, 15)
STATE_KEYS = {
    "pound_hold_regular_business_days",
    "regular_business_day_min_hours",
    "regular_business_day_window_opens",
    "regular_business_day_window_closes",
    "impound_record_retention_months",
    "impound_records_open_to_public",
    "impound_record_party_age_months",
    "research_release_forbidden",
    # 347.51-347.541 (MN-05..MN-08)
    "dd_min_bond",
    "dd_min_insurance",
    "dd_annual_fee_cap",
    "dd_microchip_statute",
    "dd_review_first_after_months",
    "dd_review_frequency",
    "dd_sterilization_days",
    "dd_sterilization_required",
    "dd_hearing_impartial_officer",
}


def amend_glencoe_retention(months, on=date(2026, 7, 1)):
    rule_amend(
        jurisdiction=Jurisdiction.objects.get(slug="glencoe"),
        key="impound_record_retention_months",
        value=months,
        effective_from=on,
        ordinance_ref="Ord. No. 640",
    )


# --- the data file ----------------------------------------------------------------------


def test_the_minnesota_layer_ships_the_346_47_values_with_citations_and_floors():
    layer = get_state_layer("MN")
    assert layer.name == "Minnesota" and set(layer.values) == STATE_KEYS
    hold = layer.values["pound_hold_regular_business_days"]
    assert (hold.value, hold.unit, hold.floor) == (5, "regular_business_days", "at_least")
    assert hold.citation == "Minn. Stat. 346.47 subd. 2"
    assert layer.values["regular_business_day_window_opens"].value == time(8, 0)
    assert layer.values["regular_business_day_window_closes"].value == time(19, 0)
    assert layer.values["regular_business_day_min_hours"].citation == (
        "Minn. Stat. 346.47 subd. 1(2)"
    )
    research = layer.values["research_release_forbidden"]
    assert (research.value, research.floor) == (True, "fixed")
    assert "college of veterinary medicine" in research.note
    assert "permitting easy perusal by the public" in (
        layer.values["impound_records_open_to_public"].quote
    )


def test_a_state_without_a_layer_has_none():
    assert get_state_layer("WI") is None
    assert get_state_layer("") is None


def test_a_key_both_layers_have_is_stated_in_the_same_terms():
    layer = get_state_layer("MN")
    for name in available_profiles():
        for key, city_spec in get_profile(name).values.items():
            if key in layer.values:
                state_spec = layer.values[key]
                assert (city_spec.kind, city_spec.unit) == (state_spec.kind, state_spec.unit)


def test_a_malformed_state_value_fails_loudly():
    head = {"state": "MN", "name": "Minnesota", "law_ref": "x", "in_force_from": date(2016, 1, 1)}
    value = {"label": "x", "type": "bool", "value": True, "citation": "c", "quote": "q"}
    with pytest.raises(ProfileError, match="floor must be one of"):
        _build_state("MN", "mn.toml", {"layer": head, "values": {"k": value}})
    with pytest.raises(ProfileError, match="can only be fixed"):
        _build_state(
            "MN", "mn.toml", {"layer": head, "values": {"k": {**value, "floor": "at_least"}}}
        )
    with pytest.raises(ProfileError, match="needs a value and a quote"):
        _build_state(
            "MN",
            "mn.toml",
            {"layer": head, "values": {"k": {**value, "floor": "fixed", "quote": ""}}},
        )
    with pytest.raises(ProfileError, match="state must be"):
        _build_state("MN", "mn.toml", {"layer": {**head, "state": "WI"}, "values": {}})


def test_times_are_stored_as_hh_mm_and_read_as_the_statute_writes_them():
    assert kinds.to_json("time", "8:00") == "08:00"
    assert kinds.to_python("time", "19:00") == time(19, 0)
    assert kinds.display("time", "", time(8, 0)) == "8:00 a.m."
    assert kinds.display("time", "", time(19, 30)) == "7:30 p.m."
    assert kinds.display("time", "", time(12, 0)) == "noon"
    assert kinds.parse_input("time", " 07:45 ") == time(7, 45)
    with pytest.raises(ValueError, match="not a time"):
        kinds.parse_input("time", "7 pm")
    assert kinds.display("int", "regular_business_days", 5) == "5 regular business days"


# --- the lookup --------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["north-branch", "glencoe"])
def test_a_key_only_the_state_sets_answers_for_every_minnesota_city(cities, slug):
    city = Jurisdiction.objects.get(slug=slug)
    rule = rule_in_force(city, "research_release_forbidden", on=TODAY)
    assert rule.value is True and rule.citation == "Minn. Stat. 346.47 subd. 3"
    assert rule.governed_by == STATE and rule.floor == "fixed"
    assert rule.why == (
        "Minn. Stat. 346.47 subd. 3 sets “Release of a seized animal for research or product "
        "testing is forbidden” (Yes), which no ordinance may change; "
        f"{city.short_name}'s ordinance has no such rule."
    )
    hold = rule_in_force(city, "pound_hold_regular_business_days", on=TODAY)
    assert (hold.value, hold.citation, hold.governed_by) == (5, "Minn. Stat. 346.47 subd. 2", STATE)
    assert hold.display() == "5 regular business days"
    assert hold.ordinance_ref == "Minn. Stat. 2016"
    assert rule_in_force(
        city, "regular_business_day_window_opens", on=TODAY, optional=True
    ).value == time(8, 0)


def test_a_software_default_is_no_ordinance_so_the_statute_governs(north_branch):
    layers = rule_layers(north_branch, "impound_record_retention_months", on=TODAY)
    assert layers.ordinance.citation == "North Branch: not in ordinance (software default)"
    assert layers.verdict == STATE_ONLY
    rule = layers.governing
    assert (rule.value, rule.citation, rule.governed_by) == (6, "Minn. Stat. 346.47 subd. 2", STATE)
    assert rule.why == (
        "Minn. Stat. 346.47 subd. 2 sets at least 6 months; "
        "North Branch's ordinance has no such rule."
    )


def test_on_a_tie_the_ordinance_restating_the_statute_governs(glencoe):
    layers = rule_layers(glencoe, "impound_record_retention_months", on=TODAY)
    assert layers.verdict == MEETS
    rule = layers.governing
    assert (rule.value, rule.citation, rule.governed_by) == (6, "Glencoe 701 Subd. 13", ORDINANCE)
    assert rule.why == (
        "Glencoe 701 Subd. 13 (6 months) meets Minn. Stat. 346.47 subd. 2 (at least 6 months)."
    )
    assert layers.ordinance.citation == "Glencoe 701 Subd. 13"
    assert layers.state.citation == "Minn. Stat. 346.47 subd. 2" and layers.state.value == 6


def test_a_stricter_city_value_governs_from_its_amendment_on(glencoe):
    amend_glencoe_retention(12)
    before = rule_in_force(glencoe, "impound_record_retention_months", on=date(2026, 6, 30))
    after = rule_layers(glencoe, "impound_record_retention_months", on=date(2026, 7, 1))
    assert before.value == 6
    assert after.verdict == STRICTER
    assert (after.governing.value, after.governing.governed_by) == (12, ORDINANCE)
    assert after.governing.ordinance_ref == "Ord. No. 640"
    assert after.governing.why == (
        "Glencoe 701 Subd. 13 (12 months) is stricter than Minn. Stat. 346.47 subd. 2 "
        "(at least 6 months), so the ordinance governs."
    )


def test_a_weaker_city_value_is_never_returned_the_statute_supersedes_it(glencoe):
    amend_glencoe_retention(3)
    layers = rule_layers(glencoe, "impound_record_retention_months", on=date(2026, 7, 1))
    assert layers.verdict == SUPERSEDED
    assert layers.ordinance.value == 3 and layers.state.value == 6
    rule = rule_in_force(glencoe, "impound_record_retention_months", on=date(2026, 7, 1))
    assert (rule.value, rule.citation, rule.governed_by) == (6, "Minn. Stat. 346.47 subd. 2", STATE)
    assert rule.why == (
        "Minn. Stat. 346.47 subd. 2 (at least 6 months) governs: Glencoe 701 Subd. 13 "
        "(3 months) is weaker than state law allows, so the statute supersedes it."
    )
    assert rule_in_force(glencoe, "impound_record_retention_months", on=date(2026, 7, 1)).value == 6


def test_at_most_a_smaller_city_value_is_the_stricter(glencoe):
    key = "impound_record_party_age_months"
    assert rule_layers(glencoe, key, on=TODAY).verdict == MEETS  # 701 Subd. 13: three months
    for months, on, verdict, governs in [
        (2, date(2026, 7, 1), STRICTER, 2),
        (6, date(2026, 8, 1), SUPERSEDED, 3),
    ]:
        rule_amend(
            jurisdiction=glencoe, key=key, value=months, effective_from=on, ordinance_ref="Ord."
        )
        layers = rule_layers(glencoe, key, on=on)
        assert (layers.verdict, layers.governing.value) == (verdict, governs)
    assert "at most 3 months" in rule_in_force(glencoe, key, on=date(2026, 8, 1)).why


def test_a_fixed_value_cannot_be_relaxed_or_changed_by_an_ordinance(north_branch):
    spec = get_state_layer("MN").values["research_release_forbidden"]
    city_spec = replace(spec, floor="", citation="North Branch Sec. 6-74(b)")
    state_row = RuleValue(
        state="MN",
        key=spec.key,
        value=True,
        effective_from=date(2016, 1, 1),
        citation=spec.citation,
        ordinance_ref="Minn. Stat. 2016",
    )
    city_row = RuleValue(
        jurisdiction=north_branch,
        key=spec.key,
        value=False,
        effective_from=date(2015, 9, 22),
        citation="North Branch Sec. 6-74(b)",
        ordinance_ref="Ord. No. 230-15",
    )
    layers = layers_from_rows(north_branch, city_spec, spec, city_row, state_row, on=TODAY)
    assert layers.verdict == SUPERSEDED and layers.governing.value is True
    assert layers.governing.governed_by == STATE
    assert "North Branch Sec. 6-74(b)" in layers.governing.why
    assert "so the statute supersedes it" in layers.governing.why
    city_row.value = True
    assert layers_from_rows(
        north_branch, city_spec, spec, city_row, state_row, on=TODAY
    ).verdict == (MEETS)


def test_a_fixed_definition_is_not_made_stricter_by_a_longer_city_value(north_branch):
    spec = get_state_layer("MN").values["regular_business_day_min_hours"]
    state_row = RuleValue(state="MN", key=spec.key, value=4, effective_from=date(2016, 1, 1))
    city_row = RuleValue(
        jurisdiction=north_branch, key=spec.key, value=6, effective_from=date(2016, 1, 1)
    )
    layers = layers_from_rows(north_branch, spec, spec, city_row, state_row, on=TODAY)
    assert layers.verdict == SUPERSEDED and layers.governing.value == 4


def test_a_city_value_in_other_terms_than_the_statute_refuses(north_branch):
    spec = get_state_layer("MN").values["impound_record_retention_months"]
    city_spec = replace(spec, unit="days", floor="")
    state_row = RuleValue(state="MN", key=spec.key, value=6, effective_from=date(2016, 1, 1))
    city_row = RuleValue(
        jurisdiction=north_branch, key=spec.key, value=180, effective_from=date(2016, 1, 1)
    )
    with pytest.raises(RuleUnavailable, match="different terms"):
        layers_from_rows(north_branch, city_spec, spec, city_row, state_row, on=TODAY)


def test_a_blank_in_the_ordinance_is_filled_by_the_statute(glencoe):
    RuleValue.objects.create(
        jurisdiction=glencoe,
        key="impound_record_retention_months",
        value=None,
        effective_from=date(2026, 7, 1),
        citation="Glencoe 701 Subd. 13",
        ordinance_ref="Ord. No. 640",
    )
    rule = rule_in_force(glencoe, "impound_record_retention_months", on=date(2026, 7, 1))
    assert (rule.value, rule.governed_by) == (6, STATE)
    assert rule.why.endswith("Glencoe's ordinance leaves it blank (Glencoe 701 Subd. 13).")


def test_before_the_statute_text_read_the_city_value_stands_alone(glencoe, north_branch):
    old = date(2015, 12, 31)
    rule = rule_in_force(glencoe, "impound_record_retention_months", on=old)
    assert (rule.governed_by, rule.why) == (ORDINANCE, "")
    with pytest.raises(RuleNotSet, match="Minn. Stat. 346.47 subd. 3"):
        rule_in_force(north_branch, "research_release_forbidden", on=old)


def test_a_refusal_cites_the_statute_where_the_ordinance_has_no_section(north_branch):
    assert rule_citation(north_branch, "MN-04") == "Minn. Stat. 346.47 subd. 3"
    assert rule_citation(north_branch, "LIC-14") == "North Branch Sec. 6-64"
    # North Branch cites only a software default for its impound records (IMP-06).
    assert rule_citation(north_branch, "IMP-06") == "Minn. Stat. 346.47 subd. 2"
    assert rule_citation(north_branch, "XYZ-99") == ""


def test_a_rule_the_state_does_not_set_reads_as_before(north_branch):
    rule = rule_in_force(north_branch, "duplicate_tag_fee", on=TODAY)
    assert (rule.governed_by, rule.floor, rule.why) == (ORDINANCE, "", "")
    layers = rule_layers(north_branch, "duplicate_tag_fee", on=TODAY)
    assert layers.state is None and layers.governing == layers.ordinance == rule


def test_a_city_outside_minnesota_has_no_minnesota_layer(cities):
    city = Jurisdiction.objects.create(
        slug="hudson", name="City of Hudson", short_name="Hudson", state="WI", profile_key="glencoe"
    )
    assert load_profile(city) > 0
    assert rule_in_force(city, "research_release_forbidden", on=TODAY, optional=True) is None
    rule = rule_in_force(city, "impound_record_retention_months", on=TODAY)
    assert (rule.citation, rule.governed_by, rule.why) == ("Glencoe 701 Subd. 13", ORDINANCE, "")
    with pytest.raises(RuleNotInOrdinance):
        rule_in_force(city, "pound_hold_regular_business_days", on=TODAY)


def test_both_layers_are_read_with_one_query(north_branch, django_assert_num_queries):
    keys = ["duplicate_tag_fee", "impound_record_retention_months", *sorted(STATE_KEYS)]
    with django_assert_num_queries(1):
        rules = rules_in_force(north_branch, keys, on=TODAY)
    assert rules["duplicate_tag_fee"].governed_by == ORDINANCE
    assert {rules[key].governed_by for key in STATE_KEYS} == {STATE}


# --- loading and amending ----------------------------------------------------------------


def test_one_row_per_statute_value_serves_every_city_of_the_state(north_branch, glencoe):
    rows = RuleValue.objects.filter(jurisdiction__isnull=True)
    assert set(rows.values_list("state", flat=True)) == {"MN"}
    assert sorted(rows.values_list("key", flat=True)) == sorted(STATE_KEYS)
    assert set(rows.values_list("effective_from", flat=True)) == {date(2016, 1, 1)}
    assert set(rows.values_list("ordinance_ref", flat=True)) == {"Minn. Stat. 2016"}


def test_loading_a_profile_twice_loads_nothing_new(north_branch, glencoe):
    count, history = RuleValue.objects.count(), RuleValue.history.count()
    assert load_profile(north_branch) == 0
    assert load_profile(glencoe) == 0
    assert (RuleValue.objects.count(), RuleValue.history.count()) == (count, history)


def test_loading_restores_a_tampered_statute_row(north_branch):
    row = RuleValue.objects.get(jurisdiction=None, key="pound_hold_regular_business_days")
    row.value = 3
    row.save()
    assert load_profile(north_branch) == 1
    assert rule_in_force(north_branch, "pound_hold_regular_business_days", on=TODAY).value == 5


def test_a_statute_amendment_takes_effect_from_its_date_for_every_city(
    north_branch, glencoe, administrator
):
    state_rule_amend(
        state="MN",
        key="pound_hold_regular_business_days",
        value=7,
        effective_from=date(2027, 8, 1),
        law_ref="2027 Minn. Laws ch. 99",
        note="Legislature lengthened the hold",
        actor=administrator,
    )
    for city in (north_branch, glencoe):
        before = rule_in_force(city, "pound_hold_regular_business_days", on=date(2027, 7, 31))
        after = rule_in_force(city, "pound_hold_regular_business_days", on=date(2027, 8, 1))
        assert (before.value, before.ordinance_ref) == (5, "Minn. Stat. 2016")
        assert (after.value, after.ordinance_ref) == (7, "2027 Minn. Laws ch. 99")
        assert after.citation == "Minn. Stat. 346.47 subd. 2"  # the section carries over
    event = Event.objects.get(action="ordinance.state_rule.amended")
    assert event.actor == administrator and event.data["value"] == 7
    assert event.data["state"] == "MN" and event.jurisdiction is None
    assert load_profile(north_branch) == 0  # an amendment is never touched by a reload


def test_a_statute_amendment_that_weakens_the_floor_lets_a_city_value_govern(glencoe):
    state_rule_amend(
        state="MN",
        key="impound_record_retention_months",
        value=12,
        effective_from=date(2027, 8, 1),
        law_ref="2027 Minn. Laws ch. 99",
    )
    rule = rule_in_force(glencoe, "impound_record_retention_months", on=date(2027, 8, 1))
    assert (rule.value, rule.governed_by) == (12, STATE)
    assert "Glencoe 701 Subd. 13 (6 months) is weaker" in rule.why


def test_a_statute_amendment_refuses_an_unknown_key_or_a_blank(cities):
    with pytest.raises(RuleNotInOrdinance):
        state_rule_amend(
            state="MN", key="nope", value=1, effective_from=TODAY, law_ref="2027 Minn. Laws"
        )
    with pytest.raises(ValueError, match="cannot be blank"):
        state_rule_amend(
            state="MN",
            key="research_release_forbidden",
            value=None,
            effective_from=TODAY,
            law_ref="2027 Minn. Laws",
        )


def test_a_row_is_a_citys_or_a_states_never_both(north_branch):
    from django.core.exceptions import ValidationError

    row = RuleValue(
        jurisdiction=north_branch,
        state="MN",
        key="x",
        value=1,
        effective_from=TODAY,
        citation="c",
        ordinance_ref="o",
    )
    with pytest.raises(ValidationError, match="either to a city or to a state"):
        row.full_clean()


# --- the rule pages ----------------------------------------------------------------------


def test_the_rules_page_shows_minnesota_law_and_which_layer_governs(client_as, officer):
    page = client_as(officer).get(reverse("ordinance:profile_list")).content.decode()
    assert page.count("Minnesota law</h3>") == 2  # beneath each city's profile
    assert "Minn. Stat. 346.47 subd. 3" in page and "Minn. Stat. 346.47 subd. 1(2)" in page
    assert "Minnesota law governs" in page and "The ordinance governs" in page
    assert "North Branch&#x27;s ordinance has no such rule." in page
    assert (
        "Glencoe 701 Subd. 13 (6 months) meets Minn. Stat. 346.47 subd. 2 (at least 6 months)."
        in page
    )
    assert "college of veterinary medicine" in page  # the exception to subd. 3


def test_a_clerk_of_one_city_sees_the_state_law_beneath_that_city_only(client_as, clerk):
    page = client_as(clerk).get(reverse("ordinance:profile_list")).content.decode()
    assert page.count("Minnesota law</h3>") == 1
    assert "Glencoe" not in page


def test_the_history_page_lists_each_statute_values_rows(client_as, administrator, glencoe):
    state_rule_amend(
        state="MN",
        key="pound_hold_regular_business_days",
        value=7,
        effective_from=date(2027, 8, 1),
        law_ref="2027 Minn. Laws ch. 99",
        actor=administrator,
    )
    page = (
        client_as(administrator)
        .get(reverse("ordinance:profile_detail", args=[glencoe.slug]))
        .content.decode()
    )
    assert "2027 Minn. Laws ch. 99" in page and "Minn. Stat. 2016" in page
    assert "History of Hold for redemption at the pound in state law" in page


def test_the_state_law_adds_no_query_per_value(
    client_as, officer, north_branch, glencoe, django_assert_max_num_queries
):
    client = client_as(officer)
    client.get(reverse("ordinance:profile_list"))  # warm the session and the profiles
    with django_assert_max_num_queries(8):
        assert client.get(reverse("ordinance:profile_list")).status_code == 200
    with django_assert_max_num_queries(8):
        assert (
            client.get(reverse("ordinance:profile_detail", args=[glencoe.slug])).status_code == 200
        )
