"""The resident's pay and return pages: approve, then pay.

The pay page shows the amount the clerk approved with its fee lines and sections
(NB Sec. 6-65(c), LIC-13, FEE-01); with Stripe configured its POST creates a Checkout
Session for that amount at a local stand-in of Stripe's API and answers 303 to it. The
return page records nothing. The CSP's form-action is widened to Checkout's host on the
pay page only when Stripe is configured. Another resident's application is a 404,
staff get 403.
"""

from decimal import Decimal

import pytest
from django.urls import reverse

from licensing.models import Payment, Receipt
from licensing.models.online import ApplicationStatus
from licensing.payments import CounterProvider, StripeProvider, payment_provider
from ordinance.models import Event
from tests.licensing.payments_helpers import (
    SECRET_KEY,
    WEBHOOK_SECRET,
    StripeStandIn,
    approved_application,
)

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-02-04T10:00")]
CHECKOUT = "https://checkout.stripe.com"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def application(north_branch, clerk, resident):
    return approved_application(north_branch, clerk, resident)


@pytest.fixture
def stand_in(settings):
    with StripeStandIn() as server:
        settings.STRIPE_SECRET_KEY = SECRET_KEY
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.STRIPE_API_BASE = server.base
        yield server


def pay_url(application):
    return reverse("licensing:application_pay", args=[application.pk])


def paid_url(application):
    return reverse("licensing:application_paid", args=[application.pk])


def form_action(response) -> str:
    policy = response.headers["Content-Security-Policy"]
    return next(d for d in policy.split(";") if d.strip().startswith("form-action")).strip()


def test_the_provider_is_the_counter_unless_both_stripe_keys_are_set(settings):
    settings.STRIPE_SECRET_KEY, settings.STRIPE_WEBHOOK_SECRET = "", ""
    assert isinstance(payment_provider(), CounterProvider)
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    assert isinstance(payment_provider(), CounterProvider)  # no webhook secret: no card
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    assert isinstance(payment_provider(), StripeProvider)


def test_without_stripe_the_page_says_pay_at_city_hall_or_by_mail(
    client, application, resident, settings, django_assert_max_num_queries
):
    settings.STRIPE_SECRET_KEY = ""
    client.force_login(resident)
    with django_assert_max_num_queries(10):
        response = client.get(pay_url(application))
    text = response.content.decode()
    assert response.status_code == 200
    assert "Pay at city hall or by mail" in text and "by card" not in text
    # The fee line with its resolution; the application date's effect with its section.
    assert "$18.00" in text and "Demo Res. 2025-14" in text and "Sec. 6-65" in text
    assert form_action(response) == "form-action 'self'"
    # A POST does nothing online.
    response = client.post(pay_url(application))
    assert response.status_code == 200 and "cannot be paid online" in response.content.decode()
    assert not Payment.objects.exists()


def test_pay_by_card_redirects_to_checkout_for_the_amount_due(
    client, application, resident, stand_in, django_assert_max_num_queries
):
    client.force_login(resident)
    with django_assert_max_num_queries(10):
        page = client.get(pay_url(application))
    assert "Pay $18.00 by card" in page.content.decode()
    assert form_action(page) == f"form-action 'self' {CHECKOUT}"
    response = client.post(pay_url(application))
    assert response.status_code == 303
    assert response["Location"] == "https://checkout.stripe.com/c/pay/cs_test_1"
    sent = stand_in.requests[0]
    assert sent["path"] == "/v1/checkout/sessions"
    assert sent["authorization"] == f"Bearer {SECRET_KEY}"
    form = sent["form"]
    assert form["mode"] == "payment"
    assert form["line_items[0][price_data][unit_amount]"] == "1800"  # $18.00 in cents
    assert form["line_items[0][price_data][currency]"] == "usd"
    assert form["client_reference_id"] == str(application.pk)
    assert form["metadata[application]"] == str(application.pk)
    assert form["customer_email"] == application.owner.email
    assert form["success_url"] == f"http://testserver{paid_url(application)}"
    assert form["cancel_url"] == f"http://testserver{pay_url(application)}"
    # Starting a payment records nothing: only the webhook does.
    assert not Payment.objects.exists() and not Receipt.objects.exists()


def test_the_csp_is_not_widened_on_other_pages(client, resident, stand_in, application):
    client.force_login(resident)
    response = client.get(reverse("licensing:portal_home"))
    assert form_action(response) == "form-action 'self'"


def test_when_checkout_does_not_answer_the_resident_is_told_and_nothing_is_recorded(
    client, application, resident, settings
):
    with StripeStandIn(fail=True) as server:
        settings.STRIPE_SECRET_KEY = SECRET_KEY
        settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
        settings.STRIPE_API_BASE = server.base
        client.force_login(resident)
        response = client.post(pay_url(application))
    assert response.status_code == 200
    assert "did not answer" in response.content.decode()
    assert not Payment.objects.exists()


def test_the_return_page_records_nothing(client, application, resident, stand_in):
    client.force_login(resident)
    events = Event.objects.count()
    response = client.get(paid_url(application), {"session_id": "cs_test_1"})
    assert response.status_code == 200
    assert "being confirmed" in response.content.decode()
    application.refresh_from_db()
    assert application.status == ApplicationStatus.APPROVED
    assert not Payment.objects.exists() and Event.objects.count() == events


def test_an_application_not_approved_offers_no_payment(client, application, resident, stand_in):
    application.apply("withdraw", actor=resident, summary="withdrawn")
    client.force_login(resident)
    page = client.get(pay_url(application))
    assert "nothing to pay" in page.content.decode() and "by card" not in page.content.decode()
    assert form_action(page) == "form-action 'self'"
    assert client.post(pay_url(application)).status_code == 200
    assert stand_in.requests == []


@pytest.mark.parametrize("name", ["licensing:application_pay", "licensing:application_paid"])
def test_another_resident_gets_404_and_staff_403(
    client, application, other_resident, clerk, administrator, name
):
    url = reverse(name, args=[application.pk])
    client.force_login(other_resident)
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    for staff in (clerk, administrator):
        client.force_login(staff)
        assert client.get(url).status_code == 403


def test_amounts_convert_to_cents_exactly():
    from licensing.payments.stripe_checkout import from_cents, to_cents

    assert to_cents(Decimal("18.00")) == 1800 and to_cents(Decimal("27.05")) == 2705
    assert from_cents(2705) == Decimal("27.05")


def test_no_card_payment_when_the_fees_changed_since_the_approval(
    client, application, resident, stand_in
):
    """A charge for the approved amount would be refused at issue (LIC-13, FEE-01): the
    resident is sent to the clerk instead of paying an amount that no longer holds."""
    from licensing.models import OnlineApplication

    OnlineApplication.objects.filter(pk=application.pk).update(amount_due=Decimal("12.00"))
    client.force_login(resident)
    page = client.get(pay_url(application))
    text = page.content.decode()
    assert "fees have changed" in text and "by card" not in text
    assert form_action(page) == "form-action 'self'"
    response = client.post(pay_url(application))
    assert response.status_code == 200 and "cannot be paid online" in response.content.decode()
    assert stand_in.requests == []
