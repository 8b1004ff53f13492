"""The default: pay at city hall or by mail; the clerk records it at the counter."""

from django.utils.translation import gettext_lazy as _

from .base import PaymentProvider


class CounterProvider(PaymentProvider):
    """Nothing happens online. The clerk records the payment on the application with
    ``application_issue`` (method cash, check or card at the counter), as for any
    counter payment."""

    name = "counter"
    label = _("Pay at city hall or by mail")
    online = False
