"""Staff read rules in words: a label, the value in words and the section; never a rule
key, a comparison code, a Python list or a rules.md ID."""

import re
from datetime import time
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from ordinance import display
from ordinance.profiles import get_profile, get_state_layer

RULES_MD_ID = re.compile(r"\b[A-Z]{3}-\d\d\b")
CODES = re.compile(r"\b(gt|lt|gte|lte)\b")


class _Text(HTMLParser):
    """The text a person reads: element text, not tags, attributes, scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    parser = _Text()
    parser.feed(response.content.decode())
    return " ".join(parser.parts)


def rule_keys(*cities) -> set[str]:
    keys = set()
    for city in cities:
        keys |= set(get_profile(city.profile_key).values)
        keys |= set(get_state_layer(city.state).values)
    return keys


def assert_plain(text: str, keys: set[str], where: str) -> None:
    words = set(re.findall(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", text))
    assert not words & keys, (where, sorted(words & keys))
    assert not CODES.search(text), (where, CODES.search(text))
    assert "['" not in text and '["' not in text, where
    found = RULES_MD_ID.findall(text)
    assert not found, (where, found)
    assert "Appendix" not in text, where


def ordinance_pages(*cities):
    yield reverse("ordinance:profile_list")
    yield reverse("ordinance:fee_schedule")
    for city in cities:
        yield reverse("ordinance:profile_detail", args=[city.slug])
        # the amendment form of one value of each type, and of every comparison
        seen = set()
        for key, spec in get_profile(city.profile_key).values.items():
            if spec.kind not in seen or key.endswith("_comparison"):
                seen.add(spec.kind)
                yield reverse("ordinance:rule_amend", args=[city.slug, key])


@pytest.mark.slow
def test_every_ordinance_page_reads_in_plain_words(client_as, administrator, north_branch, glencoe):
    client = client_as(administrator)
    keys = rule_keys(north_branch, glencoe)
    for url in ordinance_pages(north_branch, glencoe):
        assert_plain(text_of(client.get(url)), keys, url)


def test_a_clerk_reads_the_rules_page_in_words(client_as, clerk, north_branch):
    text = text_of(client_as(clerk).get(reverse("ordinance:profile_list")))
    assert_plain(text, rule_keys(north_branch), "profile list")
    assert "older than 6 months" in text  # NB Sec. 6-60: license age test, "gt"
    assert "6 months or older" in text  # NB Sec. 6-29: adult age test, "gte"
    assert "10 minutes or longer" in text  # NB Sec. 6-67: barking test, "gte"
    assert "Section" in text and "North Branch Sec. 6-60" in text


def test_the_history_shows_each_value_in_words(client_as, administrator, north_branch):
    page = client_as(administrator).get(
        reverse("ordinance:profile_detail", args=[north_branch.slug])
    )
    text = text_of(page)
    assert "Unlicensed dog running at large" in text  # an impound ground's own label
    assert "owner's name" in text  # a license application field


@pytest.mark.parametrize(
    ("kind", "unit", "value", "expected"),
    [
        ("bool", "", True, "Yes"),
        ("bool", "", False, "No"),
        ("money", "", Decimal("25"), "$25.00"),
        ("int", "days", 30, "30 days"),
        ("int", "days", 1, "1 day"),
        ("int", "business_days", 5, "5 business days"),
        ("list", "", ["dog"], "dogs"),
        ("list", "", ["dog", "cat"], "dogs, cats"),
        ("list", "", [], "none"),
        ("time", "", time(19, 0), "7:00 p.m."),
        ("text", "", "bite_date", "the date of the bite"),
    ],
)
def test_the_formatting_service_words_each_type(kind, unit, value, expected):
    assert display.words(kind, unit, value) == expected


def test_a_comparison_reads_with_its_neighboring_amount():
    profile = get_profile("north_branch")
    values = {"license_age_months": 6}
    spec = profile.values["license_age_comparison"]
    assert display.spec_words(spec, "gt", profile=profile, values=values) == ("older than 6 months")
    assert display.spec_words(spec, "gte", profile=profile, values=values) == ("6 months or older")


def test_a_note_loses_the_developers_references():
    assert display.plain_note("Counting starts the day after intake (Appendix D N20).") == (
        "Counting starts the day after intake."
    )
    assert display.plain_note("rules.md DD-29: the ordinance defines none.") == (
        "The ordinance defines none."
    )
    assert display.plain_note("Appendix D G2.") == ""


def test_the_admin_list_of_rules_shows_labels_and_words(client_as, administrator, north_branch):
    client = client_as(administrator)
    page = client.get("/admin/ordinance/rulevalue/?q=license_age")
    text = text_of(page)
    assert "License age test" in text and "older than" in text  # "gt"
    assert "License age (months)" in text and "6 months" in text
    assert "license_age_months" not in text and "['" not in text
