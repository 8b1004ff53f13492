"""Renewal season at the counter.

North Branch Sec. 6-62: dog licenses expire December 31 (LIC-07). Sec. 6-65(c):
applications may be made 30 days before the term starts (LIC-13), so next-term sales
open on December 2. A city may open them earlier as its own policy
(``Jurisdiction.next_term_sales_days_before``). Sec. 6-61: the rabies vaccination must be
given no more than 24 months before the license's expiry (LIC-05).
"""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from licensing.models import License
from licensing.services.assessment import license_assess, license_term, license_term_choice
from licensing.services.licenses import license_issue
from licensing.services.next_step import license_step
from licensing.services.standing import Standing, license_standing, standing_rules
from ordinance.models import FeeScheduleEntry
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
NOV_30, DEC_2 = date(2026, 11, 30), date(2026, 12, 2)


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, tzinfo=CHICAGO)


@pytest.fixture
def stock(north_branch, clerk):
    for year in (2026, 2027):
        TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=year, last_number=20)


@pytest.fixture
def dog(north_branch):
    """Licensed for 2026 on March 2; a 3-year vaccination of June 1, 2025."""
    animal = AnimalFactory(
        jurisdiction=north_branch, date_of_birth=date(2022, 5, 1), acquired_on=date(2022, 7, 15)
    )
    RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2025, 6, 1), duration_years=3)
    return animal


@pytest.fixture
def licensed(dog, clerk, stock):
    """``dog`` licensed for 2026, and revaccinated on November 20, 2026 (what covers a
    2027 license: given on or after December 31, 2025, Sec. 6-61)."""
    issue(dog, clerk, date(2026, 3, 2))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 11, 20), duration_years=3)
    return dog


@pytest.fixture
def fee_2027(north_branch):
    """The council's fee for 2027, in force from January 1, 2027."""
    return FeeScheduleEntry.objects.create(
        jurisdiction=north_branch,
        code="dog_license",
        description="Annual dog license",
        amount=Decimal("20.00"),
        effective_from=date(2027, 1, 1),
        resolution="Res. 2026-40",
    )


def issue(dog, clerk, on, **kw):
    return license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=on, method="cash", now=at(on), **kw
    )


def policy(city, days):
    city.next_term_sales_days_before = days
    city.save()


# --- The one answer: which terms are offered ----------------------------------------------


def test_november_30_offers_only_the_current_term_and_says_when_sales_open(north_branch):
    terms = license_term_choice(jurisdiction=north_branch, on=NOV_30)
    assert [t.year for t in terms.offered] == [2026]
    assert terms.current_days_left == 31
    assert terms.opening.on == DEC_2 and not terms.opening.by_policy
    assert terms.opening.source == "North Branch Sec. 6-65(c)"
    assert "sold from Dec 2, 2026" in terms.opening_text


def test_december_2_offers_both_terms_next_first_and_the_current_one_warns(north_branch):
    terms = license_term_choice(jurisdiction=north_branch, on=DEC_2)
    assert [t.year for t in terms.offered] == [2027, 2026]
    assert (terms.next.start, terms.next.expires_on) == (date(2027, 1, 1), date(2027, 12, 31))
    assert terms.current_days_left == 29
    assert "expires in 29 days" in terms.explain(terms.current)
    assert "tags of 2027" in terms.explain(terms.next)
    assert terms.pick(2026) == terms.current and terms.pick(2028) is None


def test_december_1_is_still_before_the_window(north_branch):
    terms = license_term_choice(jurisdiction=north_branch, on=date(2026, 12, 1))
    assert not terms.next_open


def test_a_city_policy_opens_sales_earlier_and_says_it_is_policy(north_branch):
    policy(north_branch, 61)  # November 1
    terms = license_term_choice(jurisdiction=north_branch, on=NOV_30)
    assert [t.year for t in terms.offered] == [2027, 2026]
    assert terms.opening.on == date(2026, 11, 1) and terms.opening.by_policy
    assert terms.opening.source == "City policy"
    assert "the ordinance's window opens Dec 2, 2026" in terms.opening_text
    assert "North Branch Sec. 6-65(c)" in terms.opening_text
    assert not license_term_choice(jurisdiction=north_branch, on=date(2026, 10, 31)).next_open


def test_a_policy_inside_the_ordinance_window_changes_nothing(north_branch):
    policy(north_branch, 10)
    terms = license_term_choice(jurisdiction=north_branch, on=DEC_2)
    assert terms.opening.on == DEC_2 and terms.opening.source == "North Branch Sec. 6-65(c)"


def test_the_policy_change_is_kept_in_history(north_branch):
    before = north_branch.history.count()
    policy(north_branch, 45)
    assert north_branch.history.count() == before + 1
    assert north_branch.history.first().next_term_sales_days_before == 45


def test_glencoe_has_no_dog_license_term(glencoe):
    # Glencoe 701 Subd. 2(D) (license issuance) was deleted: no term to offer.
    assert license_term_choice(jurisdiction=glencoe, on=DEC_2) is None
    dog = AnimalFactory(jurisdiction=glencoe)
    a = license_assess(animal=dog, owner=dog.owner, on=DEC_2)
    assert not a.enabled and a.terms is None
    assert "does not issue dog licenses" in a.checks[0].message
    assert "701 Subd. 2(D)" in a.checks[0].citation


def test_the_online_renewal_and_the_counter_default_agree(north_branch):
    for day in (NOV_30, DEC_2):
        start, expires_on, is_next = license_term(jurisdiction=north_branch, on=day)
        default = license_term_choice(jurisdiction=north_branch, on=day).default
        assert (start, expires_on) == (default.start, default.expires_on)
        assert is_next is (day == DEC_2)


# --- Issuing for the chosen term ----------------------------------------------------------


def test_before_the_window_next_year_is_refused_with_the_opening_day(licensed, clerk):
    with pytest.raises(Refused) as exc:
        issue(licensed, clerk, NOV_30, term_year=2027)
    check = exc.value.checks[0]
    assert check.field == "term_year"
    assert "Dec 2, 2026" in check.message and "6-65(c)" in check.citation


def test_december_2_renews_for_next_year_at_next_years_fee_and_tag(
    licensed, clerk, fee_2027, stock
):
    result = issue(licensed, clerk, DEC_2, term_year=2027)
    lic = result.license
    assert (lic.term_start, lic.expires_on) == (date(2027, 1, 1), date(2027, 12, 31))
    assert result.tag.year == 2027 and not lic.late_penalty
    assert result.receipt.total == Decimal("20.00")  # the fee in force on January 1, 2027
    assert result.receipt.lines.get().authority.startswith("Res. 2026-40")


def test_december_2_new_dog_may_take_the_current_term_at_this_years_fee(
    north_branch, clerk, fee_2027, stock
):
    puppy = AnimalFactory(
        jurisdiction=north_branch, date_of_birth=date(2025, 1, 1), acquired_on=date(2026, 11, 20)
    )
    RabiesVaccinationFactory(animal=puppy, vaccinated_on=date(2026, 11, 21))
    a = license_assess(animal=puppy, owner=puppy.owner, on=DEC_2, term_year=2026)
    assert a.term_check.status == "info" and "29 days" in a.term_check.message
    result = issue(puppy, clerk, DEC_2, term_year=2026)
    assert result.license.expires_on == date(2026, 12, 31) and result.tag.year == 2026
    assert result.receipt.total == Decimal("18.00")  # new subject: no penalty (Sec. 6-65(c))


def test_the_default_on_december_2_is_the_next_term(licensed, clerk):
    a = license_assess(animal=licensed, owner=licensed.owner, on=DEC_2)
    assert a.expires_on == date(2027, 12, 31) and a.term_check.status == "ok"


# --- The standing and the resident's next step read the same opening ----------------------


def test_standing_and_next_step_follow_the_city_policy(licensed, north_branch):
    on = date(2026, 11, 15)
    licensed.refresh_from_db()
    rules = standing_rules(north_branch, on=on)
    standing = license_standing(licensed, on=on, rules=rules)
    assert standing.state == Standing.LICENSED
    step, kind = license_step(licensed, standing, rules=rules, city_check=None)
    assert "Dec 2, 2026" in step.what and step.citation == "North Branch Sec. 6-65(c)"
    assert kind is None
    policy(north_branch, 61)
    licensed.refresh_from_db()
    standing = license_standing(licensed, on=on, rules=rules)
    assert standing.state == Standing.RENEWAL_OPEN
    assert "City policy" in standing.citation and "Nov 1, 2026" in standing.reason


# --- The counter pages ----------------------------------------------------------------------


def _pay(dog):
    return reverse("licensing:counter_pay", args=[dog.pk])


@pytest.mark.clock("2026-11-30T10:00")
def test_counter_on_november_30_says_when_next_term_sales_open(client_as, clerk, licensed):
    page = client_as(clerk).get(_pay(licensed)).content.decode()
    assert "Only the current term" in page and "expires in 31 days" in page
    assert "sold from Dec 2, 2026" in page and "North Branch Sec. 6-65(c)" in page
    assert 'name="term_year"' not in page


@pytest.mark.clock("2026-11-30T10:00")
def test_counter_with_a_city_policy_shows_it_as_policy(client_as, clerk, licensed, north_branch):
    policy(north_branch, 61)
    page = client_as(clerk).get(_pay(licensed)).content.decode()
    assert 'name="term_year"' in page and "(City policy)" in page


@pytest.mark.clock("2026-12-02T10:00")
def test_counter_on_december_2_renews_for_next_year(client_as, clerk, licensed, fee_2027):
    client = client_as(clerk)
    page = client.get(_pay(licensed)).content.decode()
    assert 'name="term_year"' in page and 'value="2027"' in page and 'value="2026"' in page
    assert "expires in 29 days" in page and "$20.00" in page
    resp = client.post(
        _pay(licensed), {"method": "cash", "amount_tendered": "20.00", "term_year": "2027"}
    )
    assert resp.status_code == 302, resp.content.decode()[:3000]
    lic = License.objects.get(animal=licensed, term_start=date(2027, 1, 1))
    assert lic.current_tag.year == 2027 and lic.receipt.total == Decimal("20.00")


@pytest.mark.clock("2026-12-02T10:00")
@pytest.mark.parametrize("bad", ["2030", "abc", "20270"])
def test_counter_refuses_a_term_not_offered_next_to_the_field(client_as, clerk, licensed, bad):
    resp = client_as(clerk).post(_pay(licensed), {"method": "cash", "term_year": bad})
    assert resp.status_code == 200
    assert "Select a valid choice" in resp.content.decode()
    assert not License.objects.filter(term_start=date(2027, 1, 1)).exists()


@pytest.mark.clock("2026-12-02T10:00")
def test_glencoe_counter_on_december_2_says_it_issues_no_dog_licenses(
    client_as, glencoe_clerk, glencoe
):
    dog = AnimalFactory(jurisdiction=glencoe)
    page = client_as(glencoe_clerk).get(_pay(dog)).content.decode()
    assert "does not issue dog licenses" in page and "701 Subd. 2(D)" in page
    assert 'name="term_year"' not in page


# --- Item 8: the rabies rule explained ------------------------------------------------------


@pytest.mark.clock("2026-12-02T10:00")
def test_checks_screen_explains_a_valid_vaccine_too_old_for_the_term(
    client_as, clerk, north_branch, stock
):
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2022, 5, 1))
    RabiesVaccinationFactory(
        animal=dog, vaccinated_on=date(2025, 3, 1), duration_years=3, next_due_on=None
    )
    url = reverse("licensing:counter_animal", args=[dog.owner.pk]) + f"?animal={dog.pk}"
    page = client_as(clerk).get(url).content.decode()
    # The next term (expires December 31, 2027) needs a vaccination on or after
    # December 31, 2025; the 3-year vaccine is valid until March 1, 2028.
    assert "The vaccination of Mar 1, 2025 is still valid (until Mar 1, 2028)" in page
    assert "more than 24 months before this license expires on Dec 31, 2027" in page
    assert "on or after Dec 31, 2025" in page and "North Branch Sec. 6-61" in page
    assert "Check for the 2026 term instead" in page
    page = client_as(clerk).get(url + "&term_year=2026").content.decode()
    assert "Vaccinated Mar 1, 2025" in page and "covers a license expiring Dec 31, 2026" in (page)


def test_an_expired_vaccine_keeps_the_plain_refusal(north_branch):
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(
        animal=dog, vaccinated_on=date(2024, 6, 1), duration_years=1, next_due_on=None
    )
    a = license_assess(animal=dog, owner=dog.owner, on=DEC_2, term_year=2026)
    rabies = next(c for c in a.checks if c.citation == "North Branch Sec. 6-61" and c.blocks)
    assert "does not qualify" in rabies.message and "still valid" not in rabies.message


def test_the_rules_page_shows_the_policy_as_policy(client_as, administrator, north_branch):
    policy(north_branch, 61)
    url = reverse("ordinance:profile_detail", args=[north_branch.slug])
    page = client_as(administrator).get(url).content.decode()
    assert "City policy (not in the ordinance)" in page
    assert "sold from 61 days before the term starts" in page
    change = reverse("admin:ordinance_jurisdiction_change", args=[north_branch.pk])
    assert change in page
    assert client_as(administrator).get(change).status_code == 200
    history = reverse("admin:ordinance_jurisdiction_history", args=[north_branch.pk])
    assert client_as(administrator).get(history).status_code == 200
