"""Card payments through Stripe Checkout.

Approve, then pay: the resident's POST creates a Checkout Session for the amount the
clerk approved and the browser goes to Stripe's page. Nothing is recorded until Stripe's
signed ``checkout.session.completed`` webhook arrives; it is verified with the endpoint's
secret (``stripe.Webhook.construct_event``) and handed to ``online_payment_received``,
which issues the license through the counter's own ``application_issue``. The return
page records nothing: a resident can open it without paying.
"""

import logging
from decimal import Decimal

import stripe
from django.conf import settings
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _

from ordinance.money import CENT

from .base import CheckoutUnavailable, PaymentProvider, WebhookRejected

log = logging.getLogger(__name__)

CHECKOUT_ORIGIN = "https://checkout.stripe.com"
# A card is paid when the session completes; a delayed method (a bank debit) completes
# unpaid and is paid with the second event. Either way the session says "paid".
PAID_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded")
CURRENCY = "usd"


def to_cents(amount: Decimal) -> int:
    return int(amount / CENT)


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


class StripeProvider(PaymentProvider):
    name = "stripe"
    label = _("Pay by card")
    online = True
    form_action_origins = (CHECKOUT_ORIGIN,)

    @property
    def is_configured(self) -> bool:
        return bool(settings.STRIPE_SECRET_KEY and settings.STRIPE_WEBHOOK_SECRET)

    def _client(self) -> stripe.StripeClient:
        base = settings.STRIPE_API_BASE
        return stripe.StripeClient(
            settings.STRIPE_SECRET_KEY,
            base_addresses={"api": base} if base else None,
            max_network_retries=1,
        )

    def start(self, application, *, success_url: str, cancel_url: str, email: str = "") -> str:
        """Create the Checkout Session for ``amount_due`` and return its URL."""
        pk = str(application.pk)
        params = {
            "mode": "payment",
            "line_items": [
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": CURRENCY,
                        "unit_amount": to_cents(application.amount_due),
                        "product_data": {
                            "name": __("%(city)s license for %(animal)s")
                            % {
                                "city": application.jurisdiction.name,
                                "animal": application.animal.name,
                            }
                        },
                    },
                }
            ],
            "client_reference_id": pk,
            "metadata": {"application": pk},
            "payment_intent_data": {"metadata": {"application": pk}},
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if email:
            params["customer_email"] = email
        try:
            session = self._client().v1.checkout.sessions.create(params=params)
        except stripe.StripeError as exc:
            log.warning("Stripe Checkout for application %s failed: %s", pk, exc)
            raise CheckoutUnavailable(str(exc)) from exc
        return session.url

    def handle_webhook(self, payload: bytes, signature: str):
        """Verify the delivery; on a paid Checkout Session, record the payment (a replay
        finds it and changes nothing). Other events are acknowledged and ignored."""
        try:
            event = stripe.Webhook.construct_event(
                payload, signature, settings.STRIPE_WEBHOOK_SECRET
            )
        except (ValueError, stripe.SignatureVerificationError) as exc:
            raise WebhookRejected(str(exc)) from exc
        if event.type not in PAID_EVENTS:
            return None
        session = event.data.object.to_dict()  # a StripeObject is not a dict
        if session.get("payment_status") != "paid":
            return None  # not yet: async_payment_succeeded follows when it is
        return self._received(session)

    def _received(self, session):
        from licensing.services.payments import online_payment_received

        metadata = session.get("metadata") or {}
        # The PaymentIntent id is what the city finds in Stripe's dashboard (about 27
        # characters; the receipt's reference holds 40).
        reference = session.get("payment_intent") or session.get("id") or ""
        return online_payment_received(
            application_pk=metadata.get("application") or session.get("client_reference_id"),
            provider=self.name,
            provider_id=reference,
            reference=reference[:40],
            amount=from_cents(session.get("amount_total") or 0),
            currency=session.get("currency") or CURRENCY,
        )
