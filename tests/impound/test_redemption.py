"""Redemption: the quote from the profile's fee codes, blank fees refused with their
sections, the conditions before release, the receipt and the closed case (IMP-07, IMP-08)."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from impound.models import CaseStatus, Redemption
from impound.services.gates import gate_clear_court_authorization
from impound.services.redemption import case_redeem, redemption_quote
from licensing.services import licenses as license_svc
from notices.models import IssuedDocument
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

from .factories import make_pound
from .helpers import impound, order_pdf, owned_dog, set_fee

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-30T10:00")]
TODAY = date(2026, 11, 30)


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def quote_for(case, **kw):
    return redemption_quote(case=case, owner=case.owner, on=TODAY, **kw)


# --- Glencoe: fees from the profile's lists, blank ones refused with their sections ----


def test_a_blank_boarding_fee_refuses_the_total_naming_its_section(glencoe, officer, pound):
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=True))
    with pytest.raises(Refused) as caught:
        quote_for(case, licensed=True)
    sections = caught.value.sections
    # Every blank fee at once: the boarding fee and the resident's immunization fee.
    assert "Glencoe 701 Subd. 8, 13" in sections
    assert "Glencoe 701 Subd. 24(A)" in sections
    assert len(caught.value.checks) == 2
    assert "not set" in str(caught.value)


def test_glencoe_licensed_is_the_release_fee_and_boarding_per_day(glencoe, officer, pound):
    set_fee(glencoe, "boarding_daily", "10.00", "Animal boarding (per day)")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=False))
    quote = quote_for(case, licensed=True)
    assert quote.days == 3
    assert [(ln.code, ln.amount, ln.authority) for ln in quote.lines] == [
        ("release", Decimal("15.00"), "Glencoe 701 Subd. 13(A)"),
        ("boarding_daily", Decimal("30.00"), "Council Res. 2026-09"),
    ]
    assert "3 days × $10.00" in quote.lines[1].description
    assert quote.total == Decimal("45.00")


def test_glencoe_unlicensed_adds_75_dollars_and_the_blank_license_fee(glencoe, officer, pound):
    set_fee(glencoe, "boarding_daily", "10.00")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=False))
    with pytest.raises(Refused) as caught:
        quote_for(case, licensed=False)
    assert caught.value.sections == ["Glencoe 701 Subd. 13(B)"]
    set_fee(glencoe, "dog_license", "20.00", "Dog license")
    quote = quote_for(case, licensed=False)
    assert [(ln.code, ln.amount) for ln in quote.lines] == [
        ("unlicensed", Decimal("75.00")),
        ("dog_license", Decimal("20.00")),
        ("release", Decimal("15.00")),
        ("boarding_daily", Decimal("30.00")),
    ]
    assert quote.total == Decimal("140.00")


def test_glencoe_needs_the_clerk_to_record_licensed_or_not(glencoe, officer, pound):
    set_fee(glencoe, "boarding_daily", "10.00")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe))
    with pytest.raises(Refused) as caught:
        quote_for(case)
    assert caught.value.checks[0].field == "licensed"
    assert caught.value.sections  # the section that deleted licensing (G1)


def test_a_resident_pays_the_immunization_fee_and_needs_no_vaccination(glencoe, officer, pound):
    set_fee(glencoe, "boarding_daily", "10.00")
    set_fee(glencoe, "immunization", "12.50", "Immunization fee")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=True))
    quote = quote_for(case, licensed=True)
    assert [ln.code for ln in quote.lines] == ["release", "boarding_daily", "immunization"]
    assert quote.lines[-1].authority == "Council Res. 2026-09"
    assert quote.total == Decimal("57.50")
    assert quote.can_redeem
    # The resident flag can be overridden at the counter: a nonresident pays no immunization.
    assert [ln.code for ln in quote_for(case, licensed=True, resident=False).lines] == [
        "release",
        "boarding_daily",
    ]


def test_a_nonresident_is_refused_until_a_vaccination_is_recorded_then_redeems(
    glencoe, officer, glencoe_clerk, pound
):
    set_fee(glencoe, "boarding_daily", "10.00")
    animal = owned_dog(glencoe, resident=False)
    RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2025, 6, 1))  # before placement
    case = impound(glencoe, pound, officer, animal=animal)
    quote = quote_for(case, licensed=True)
    assert [c.citation for c in quote.conditions] == ["Glencoe 701 Subd. 24"]
    with pytest.raises(Refused) as caught:
        case_redeem(
            case=case, owner=animal.owner, actor=glencoe_clerk, method="cash", licensed=True
        )
    assert caught.value.sections == ["Glencoe 701 Subd. 24"]
    assert caught.value.checks[0].field == "immunization"
    shot = RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2026, 11, 28))

    redemption = case_redeem(
        case=case,
        owner=animal.owner,
        actor=glencoe_clerk,
        method="check",
        reference="1042",
        licensed=True,
    )
    receipt = redemption.receipt
    assert receipt.total == Decimal("45.00")
    assert receipt.payer == animal.owner and receipt.reference == "1042"
    lines = list(receipt.lines.order_by("position"))
    assert [ln.code for ln in lines] == ["release", "boarding_daily"]
    assert "3 days × $10.00" in lines[1].description
    assert lines[0].authority == "Glencoe 701 Subd. 13(A)"
    assert redemption.immunization == shot
    assert (redemption.licensed, redemption.resident, redemption.days_charged) == (True, False, 3)
    case.refresh_from_db()
    assert case.status == CaseStatus.REDEEMED
    assert case.licensed is True
    assert case.transferred_to_name == animal.owner.name
    assert case.transferred_to_address == animal.owner.address
    assert case.closed_on == TODAY
    assert Event.objects.for_object(case).filter(action="impound.case.redeemed").count() == 1
    kinds = set(IssuedDocument.objects.filter(number=str(receipt.number)).values_list("kind"))
    assert ("receipt",) in kinds
    # Once redeemed, never again.
    with pytest.raises(Refused, match="cannot be redeemed"):
        case_redeem(
            case=case, owner=animal.owner, actor=glencoe_clerk, method="cash", licensed=True
        )
    assert Redemption.objects.count() == 1


def test_only_the_registry_owner_may_redeem(glencoe, officer, glencoe_clerk, pound):
    set_fee(glencoe, "boarding_daily", "10.00")
    set_fee(glencoe, "immunization", "12.50")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe))
    stranger = owned_dog(glencoe).owner
    with pytest.raises(Refused) as caught:
        case_redeem(case=case, owner=stranger, actor=glencoe_clerk, method="cash", licensed=True)
    assert caught.value.checks[0].field == "owner"
    case.refresh_from_db()
    assert case.status == CaseStatus.HELD


def test_an_owner_unknown_case_is_refused_until_the_owner_is_identified(glencoe, officer, pound):
    set_fee(glencoe, "boarding_daily", "10.00")
    case = impound(glencoe, pound, officer)
    assert case.owner is None
    owner = owned_dog(glencoe, resident=False).owner
    quote = redemption_quote(case=case, owner=owner, on=TODAY, licensed=True)
    assert any(c.field == "owner" for c in quote.conditions)


# --- North Branch: Sec. 6-75 court gate, license first, then redeemed --------------------


@pytest.fixture
def nb_fees(north_branch):
    set_fee(north_branch, "impounding", "35.00", "Impoundment fee")
    set_fee(north_branch, "boarding_daily", "12.00", "Daily care")


def test_a_sec_6_75_dog_is_refused_until_a_court_authorizes_then_licensed_and_redeemed(
    north_branch, officer, clerk, pound, nb_fees
):
    animal = owned_dog(north_branch)
    RabiesVaccinationFactory(animal=animal)
    case = impound(north_branch, pound, officer, animal=animal, ground="sec_6_73_at_large")
    owner = animal.owner
    with pytest.raises(Refused) as caught:
        case_redeem(case=case, owner=owner, actor=clerk, method="cash")
    assert "North Branch Sec. 6-75" in caught.value.sections
    assert "North Branch Sec. 6-70" in caught.value.sections  # license first
    assert "North Branch Sec. 6-75" in str(caught.value)

    gate = case.gates.get()
    gate_clear_court_authorization(
        gate=gate,
        actor=officer,
        court="Chisago County District Court",
        order_number="13-CV-26-114",
        order_date=date(2026, 11, 29),
        document=order_pdf(),
        terms="Released to the owner on licensing",
    )
    quote = quote_for(case)
    assert [c.citation for c in quote.conditions] == ["North Branch Sec. 6-70"]
    assert "License the dog at the counter first" in quote.conditions[0].message
    assert quote.conditions[0].url.endswith(f"?animal={animal.pk}")

    TagStockFactory(jurisdiction=north_branch, year=2026, recorded_by=clerk)
    TagStockFactory(jurisdiction=north_branch, year=2027, last_number=20, recorded_by=clerk)
    issued = license_svc.license_issue(
        animal=animal, owner=owner, actor=clerk, on=TODAY, method="cash"
    )
    redemption = case_redeem(case=case, owner=owner, actor=clerk, method="card", reference="4242")
    assert redemption.license == issued.license
    assert redemption.licensed is True
    lines = list(redemption.receipt.lines.order_by("position"))
    assert [(ln.code, ln.amount) for ln in lines] == [
        ("impounding", Decimal("35.00")),
        ("boarding_daily", Decimal("36.00")),
    ]
    assert redemption.receipt.total == Decimal("71.00")
    assert redemption.receipt.number != issued.receipt.number
    case.refresh_from_db()
    assert case.status == CaseStatus.REDEEMED


def test_a_north_branch_total_with_blank_fees_is_refused_with_sec_6_71(
    north_branch, officer, pound
):
    case = impound(north_branch, pound, officer, animal=owned_dog(north_branch))
    with pytest.raises(Refused) as caught:
        quote_for(case)
    assert caught.value.sections == ["North Branch Sec. 6-71", "North Branch Sec. 6-71"]


def test_a_zero_total_still_gets_a_receipt(north_branch, officer, clerk, pound):
    set_fee(north_branch, "impounding", "0.00")
    set_fee(north_branch, "boarding_daily", "0.00")
    animal = owned_dog(north_branch)
    RabiesVaccinationFactory(animal=animal)
    TagStockFactory(jurisdiction=north_branch, year=2026, recorded_by=clerk)
    license_svc.license_issue(
        animal=animal, owner=animal.owner, actor=clerk, on=TODAY, method="cash"
    )
    case = impound(north_branch, pound, officer, animal=animal)
    redemption = case_redeem(case=case, owner=animal.owner, actor=clerk, method="cash")
    assert redemption.receipt.total == Decimal("0.00")
    assert redemption.receipt.lines.count() == 2


# --- Views -----------------------------------------------------------------------------


def test_the_counter_page_shows_blank_fees_with_their_sections_not_a_500(
    glencoe, officer, glencoe_clerk, pound, client_as, django_assert_max_num_queries
):
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=True))
    client = client_as(glencoe_clerk)
    url = reverse("impound:case_redeem", args=[case.pk])
    # Over the style's 10: ordinance.fees.fee_amount reads each fee code with its own
    # rule and schedule queries (two per council-set fee); see the report.
    with django_assert_max_num_queries(18):
        response = client.get(url + "?licensed=yes&method=cash")
    text = response.content.decode()
    assert response.status_code == 200
    assert "Glencoe 701 Subd. 8, 13" in text and "Glencoe 701 Subd. 24(A)" in text
    response = client.post(url, {"licensed": "yes", "method": "cash", "amount_tendered": "1000"})
    assert response.status_code == 200
    assert "Glencoe 701 Subd. 8, 13" in response.content.decode()
    case.refresh_from_db()
    assert case.status == CaseStatus.HELD


def test_the_clerk_redeems_at_the_counter_and_sees_the_receipt(
    glencoe, officer, glencoe_clerk, pound, client_as
):
    set_fee(glencoe, "boarding_daily", "10.00")
    set_fee(glencoe, "immunization", "12.50")
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe, resident=True))
    client = client_as(glencoe_clerk)
    url = reverse("impound:case_redeem", args=[case.pk])
    page = client.get(url + "?licensed=yes&method=cash").content.decode()
    assert "3 days × $10.00" in page and "$57.50" in page
    response = client.post(url, {"method": "check"})  # no licensed answer, no check number
    assert response.status_code == 200
    form = response.context["form"]
    assert "licensed" in form.errors and "reference" in form.errors
    response = client.post(url, {"licensed": "yes", "method": "cash", "amount_tendered": "60"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Cash tendered $60.00; change due $2.50." in page  # what the counter says back
    case.refresh_from_db()
    assert case.status == CaseStatus.REDEEMED
    assert f"receipt {case.redemption.receipt.number}" in page
    assert "Receipt (PDF)" in page


def test_the_officer_sees_the_quote_but_may_not_take_payment(
    north_branch, officer, pound, client_as, nb_fees
):
    case = impound(north_branch, pound, officer, animal=owned_dog(north_branch))
    client = client_as(officer)
    url = reverse("impound:case_redeem", args=[case.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert "License the dog at the counter first" in response.content.decode()
    assert client.post(url, {"method": "cash"}).status_code == 403


def test_another_citys_case_is_404_and_a_resident_403(
    north_branch, officer, glencoe_clerk, resident, pound, client_as
):
    case = impound(north_branch, pound, officer, animal=owned_dog(north_branch))
    url = reverse("impound:case_redeem", args=[case.pk])
    assert client_as(glencoe_clerk).get(url).status_code == 404
    assert client_as(resident).get(url).status_code == 403
