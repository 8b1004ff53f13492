"""How a resident pays an approved online application.

A provider is one way money reaches the city. The default is the counter: the resident
pays at city hall or by mail and the clerk records it there with ``application_issue``,
as for any counter payment; nothing happens online. Stripe Checkout is the other, on
only when its keys are configured. ``payment_provider()`` answers which one is active;
settings are read when it is called, never at import (style.md, "Settings").
"""

from .base import CheckoutUnavailable, PaymentProvider, WebhookRejected
from .counter import CounterProvider
from .stripe_checkout import StripeProvider


def payment_provider() -> PaymentProvider:
    """The provider residents pay through: Stripe when configured, else the counter."""
    stripe = StripeProvider()
    return stripe if stripe.is_configured else CounterProvider()


__all__ = [
    "CheckoutUnavailable",
    "CounterProvider",
    "PaymentProvider",
    "StripeProvider",
    "WebhookRejected",
    "payment_provider",
]
