"""A resident pays an approved application by card on a phone, in a real
browser at 375 px: the pay page passes axe, "Pay by card" goes to Stripe Checkout (the
CSP's form-action lets the redirect through, only to Checkout's host), the return page
waits for the webhook, and once the signed webhook arrives the resident downloads the
receipt, whose text shows its number and fee. The clerk's list of online payments
passes axe too.

Checkout's page itself is a stand-in served by Playwright's router (the suite is
offline); Stripe's API is the local stand-in of tests/licensing/payments_helpers.py.
"""

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import Receipt
from tests.licensing.payments_helpers import (
    SECRET_KEY,
    WEBHOOK_SECRET,
    StripeStandIn,
    approved_application,
    completed_event,
    deliver,
)
from tests.pdf import pdf_text


@pytest.fixture(autouse=True)
def _before_renewal_season():
    """These pages are about the current term: run on December 1, 2026, the day before
    North Branch's next-term sales open (Sec. 6-65(c)), whatever the real date.
    Ticking, so the live server and the browser see time pass."""
    with time_machine.travel(
        datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


PHONE = {"width": 375, "height": 812}


@pytest.fixture
def stripe_stand_in(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    with StripeStandIn() as server:
        settings.STRIPE_SECRET_KEY = SECRET_KEY
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.STRIPE_API_BASE = server.base
        yield server


def no_sideways_scroll(page):
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways ({width}px)"


@pytest.mark.django_db(transaction=True)
def test_a_resident_pays_by_card_on_a_phone_and_downloads_the_receipt(
    page, login_as, assert_accessible, resident, clerk, north_branch, stripe_stand_in
):
    today = timezone.localdate()
    application = approved_application(north_branch, clerk, resident, applied=today, approved=today)
    page.set_viewport_size(PHONE)
    checkout_pages = []
    page.route(
        "https://checkout.stripe.com/**",
        lambda route: (
            checkout_pages.append(route.request.url),
            route.fulfill(
                content_type="text/html",
                body="<!doctype html><html lang='en'><title>Checkout</title><h1>Checkout</h1>",
            ),
        ),
    )
    login_as(resident)

    page.goto(f"/my/applications/{application.pk}/pay/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Juniper")
    due = f"${application.amount_due}"
    expect(page.get_by_role("table")).to_contain_text(due)
    no_sideways_scroll(page)
    assert_accessible()

    page.get_by_role("button", name=re.compile("by card")).click()
    page.wait_for_url("https://checkout.stripe.com/**")
    assert checkout_pages == ["https://checkout.stripe.com/c/pay/cs_test_1"]
    sent = stripe_stand_in.requests[0]["form"]
    assert sent["line_items[0][price_data][unit_amount]"] == str(int(application.amount_due * 100))

    # Back from Checkout before the webhook: nothing recorded, the page says so.
    page.goto(f"/my/applications/{application.pk}/paid/")
    expect(page.get_by_text("being confirmed")).to_be_visible()
    no_sideways_scroll(page)
    assert_accessible()
    assert not Receipt.objects.exists()

    # Stripe's signed webhook (not the browser) pays the application.
    event = completed_event(application, amount_cents=int(application.amount_due * 100))
    assert deliver(Client(), event).status_code == 200
    receipt = Receipt.objects.get()

    page.reload()
    expect(page.get_by_text("the payment is confirmed")).to_be_visible()
    page.get_by_role("link", name="Your animals and documents").click()
    link = page.get_by_role("link", name=f"PDF of Receipt {receipt.number}").first
    text = pdf_text(page.request.get(link.get_attribute("href")).body())
    assert str(receipt.number) in text and f"{receipt.total}" in text


@pytest.mark.django_db(transaction=True)
def test_the_clerks_list_of_online_payments_works_on_a_phone(
    page, login_as, assert_accessible, resident, clerk, north_branch, stripe_stand_in
):
    today = timezone.localdate()
    application = approved_application(north_branch, clerk, resident, applied=today, approved=today)
    deliver(Client(), completed_event(application, amount_cents=100))  # held: $1.00
    page.set_viewport_size(PHONE)
    login_as(clerk)
    page.goto("/online/payments/")
    expect(page.get_by_role("table")).to_contain_text("pi_3TestPaymentIntent0001")
    assert_accessible()
    page.get_by_role("button", name="Finish: issue the license").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Receipt")
    assert Receipt.objects.get().reference == "pi_3TestPaymentIntent0001"
