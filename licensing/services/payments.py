"""Money received online for an approved application: one payment, one receipt.

A provider's confirmation (Stripe's webhook) arrives here with the provider's own id.
The application row is locked first, so two deliveries of the same event run one after
the other, and the second finds the payment the first recorded (the unique
``provider_id`` backs this if the lock is ever bypassed): a replay changes nothing.

The license is issued with the counter's ``application_issue``, the approving clerk as
actor (``Receipt.issued_by`` is required; the clerk approved what was charged), the
provider's id as the receipt's reference and the amount charged as the expected total.
When the issue is refused (the fee schedule changed, the application was withdrawn) the
money is kept: the payment is held and the application returns to the clerk, who
finishes it with ``payment_finish``.
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ordinance.refusals import Refused

from ..models import OnlineApplication, Payment
from .applications import application_hold, application_issue
from .documents import IssueResult

log = logging.getLogger(__name__)
PAYMENT = gettext_lazy("Payment")
CURRENCY = "usd"  # receipts are in dollars


@dataclass
class PaymentOutcome:
    payment: Payment | None
    replay: bool = False
    issued: IssueResult | None = None


def _reason(refused: Refused) -> str:
    return "; ".join(refused.messages)


def online_payment_received(
    *,
    application_pk,
    provider: str,
    provider_id: str,
    reference: str,
    amount: Decimal,
    currency: str,
    now: datetime | None = None,
) -> PaymentOutcome:
    """Record a provider's payment and issue the license it paid for, or hold it."""
    now = now or timezone.now()
    with transaction.atomic():
        application = (
            OnlineApplication.objects.select_for_update(of=("self",))
            .select_related("jurisdiction", "reviewed_by")
            .filter(pk=application_pk)
            .first()
        )
        if application is None:
            # Nothing to attach the money to: the city reconciles it in the provider's
            # dashboard. Logged loudly, acknowledged so the provider stops retrying.
            log.error(
                "%s payment %s names no application (%r)", provider, provider_id, application_pk
            )
            return PaymentOutcome(payment=None)
        existing = Payment.objects.filter(provider_id=provider_id).first()
        if existing is not None:
            return PaymentOutcome(payment=existing, replay=True)
        try:
            with transaction.atomic():
                payment = Payment.receive(
                    application=application,
                    provider=provider,
                    provider_id=provider_id,
                    reference=reference,
                    amount=amount,
                    currency=currency,
                    at=now,
                )
        except IntegrityError:  # another delivery recorded it in between
            return PaymentOutcome(payment=Payment.objects.get(provider_id=provider_id), replay=True)
        return _issue_or_hold(application, payment, now=now)


def _check_payable(application, payment) -> None:
    if payment.currency.lower() != CURRENCY:
        raise Refused.because(
            PAYMENT,
            _("The payment is in %(currency)s, not US dollars.")
            % {"currency": payment.currency.upper()},
        )
    if application.reviewed_by is None:
        raise Refused.because(PAYMENT, _("No clerk has approved this application."))


def _issue_or_hold(application, payment, *, now) -> PaymentOutcome:
    try:
        _check_payable(application, payment)
        result = application_issue(
            application,
            actor=application.reviewed_by,
            method="card",
            reference=payment.reference,
            expected_total=payment.amount,
            now=now,
        )
    except Refused as refused:
        reason = _reason(refused)
        payment.hold(reason, at=now)
        try:
            application_hold(application, reason=reason, now=now)
        except Refused:
            pass  # withdrawn or already issued: the held payment is on the clerk's list
        return PaymentOutcome(payment=payment)
    payment.settle(result.receipt, actor=application.reviewed_by, at=now)
    return PaymentOutcome(payment=payment, issued=result)


def payment_finish(payment, *, actor, now: datetime | None = None) -> IssueResult:
    """The clerk finishes a held payment: issue the license as at the counter (card, the
    provider's reference on the receipt) and link the receipt to the payment."""
    now = now or timezone.now()
    with transaction.atomic():
        payment = (
            Payment.objects.select_for_update(of=("self",))
            .select_related("application__jurisdiction")
            .get(pk=payment.pk)
        )
        if payment.status != Payment.Status.HELD:  # a held one only, not one just received
            raise Refused.because(PAYMENT, _("Only a held payment can be finished."))
        result = application_issue(
            payment.application,
            actor=actor,
            method="card",
            reference=payment.reference,
            now=now,
        )
        payment.settle(result.receipt, actor=actor, at=now)
    return result
