"""A Glencoe clerk takes a kennel application through its review steps (KEN-04, KEN-05);
axe-core passes on every page visited."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.licensing.factories import OwnerFactory

GL_STEPS = ["City Administrator review", "Planning Division zoning referral", "Issue or deny"]


@pytest.mark.django_db(transaction=True)
def test_a_clerk_takes_a_glencoe_kennel_application_to_issue(
    page, login_as, assert_accessible, glencoe_clerk, glencoe
):
    owner = OwnerFactory(
        jurisdiction=glencoe, first_name="Karin", last_name="Kennelmeyer", postal_code="55336"
    )
    login_as(glencoe_clerk)
    page.goto("/kennels/")
    assert_accessible()
    page.get_by_role("link", name="Record a kennel license application").click()
    assert_accessible()
    # The applicant is found by search, not picked from every owner.
    search = page.get_by_role("search", name="Find the applicant")
    search.get_by_role("searchbox").fill("Kennelmeyer")
    search.get_by_role("button", name="Search").click()
    page.get_by_label(f"Karin Kennelmeyer, {owner.address}").check()
    assert_accessible()
    page.get_by_label("Nature of business").fill("Breeding and boarding")
    page.get_by_label("Number of dogs").fill("7")
    page.get_by_role("button", name="Record application").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Kennel license application")
    expect(page.locator("main")).to_contain_text("blank in the ordinance")
    assert_accessible()

    # Glencoe takes the fee with the application (701 Subd. 4(C)).
    page.locator("#id_pay-method").select_option("check")
    page.locator("#id_pay-reference").fill("1042")
    page.get_by_role("button", name="Take fee and print receipt").click()
    expect(page.locator("main")).to_contain_text("Paid: receipt")

    today = timezone.localdate()
    for step in GL_STEPS:
        page.get_by_label("Review step").select_option(step)
        page.get_by_label("Outcome").select_option("approved")
        page.get_by_label("Decided by (name)").fill("Ann Administrator")
        page.get_by_label("In the capacity of").fill("City Administrator")
        page.get_by_label("Decided on").fill(today.isoformat())
        page.get_by_label("Reasons").fill("Requirements met.")
        page.get_by_role("button", name="Record decision").click()
        steps_table = page.get_by_role("table").first
        expect(steps_table.locator("tr", has_text=step)).to_contain_text("Ann Administrator")
    assert_accessible()

    page.get_by_role("button", name="Issue license").click()
    expect(page.locator("main")).to_contain_text("Active")
    expect(page.locator("main")).to_contain_text("valid until revoked")
    assert_accessible()
