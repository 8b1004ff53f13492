"""The interface every payment provider offers."""

from django.utils.translation import gettext_lazy as _


class CheckoutUnavailable(Exception):
    """The provider could not start a payment (network, refused by the provider)."""


class WebhookRejected(Exception):
    """A webhook delivery that is not the provider's (bad signature or payload)."""


class PaymentProvider:
    """One way money reaches the city.

    ``online`` providers take the resident to ``start``'s URL and confirm the payment
    later through ``handle_webhook``; the return page never records anything."""

    name = ""
    label = _("Payment")
    online = False
    # Origins a form on the pay page may send the browser to (CSP form-action).
    form_action_origins: tuple[str, ...] = ()

    @property
    def is_configured(self) -> bool:
        return True

    def start(self, application, *, success_url: str, cancel_url: str, email: str = "") -> str:
        """Begin paying ``application.amount_due``; return the URL to send the resident to."""
        raise NotImplementedError

    def handle_webhook(self, payload: bytes, signature: str):
        """Verify and act on a delivery; raises ``WebhookRejected`` when it is not genuine."""
        raise NotImplementedError
