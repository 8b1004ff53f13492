"""Numbered receipts: one way to take money (dog licenses, tags, transfers, kennels).

LIC-06, REC-01: every payment gets the next number of the city's gap-free series
(``kernel.numbers.allocate``, under a row lock in the payment's transaction);
a receipt is never deleted, a void is a new receipt with negative lines pointing at it
(``receipt_create(voids=...)``). Voiding touches licenses, tags, kennel licenses and
documents, so ``services.voids`` orchestrates it; this module imports none of them
(a contract in pyproject.toml keeps it from importing ``services.kennels``).
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from kernel.numbers import allocate
from licensing.models import PaymentMethod, Receipt, ReceiptLine
from licensing.services.numbering import RECEIPTS
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.money import money_sum, to_money
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable

TENDERED = gettext_lazy("Amount tendered")


@dataclass
class FeeLine:
    """One line of a receipt before it is written: what was paid for, and under which
    section (the fee schedule's authority, or the rule of a penalty)."""

    code: str
    description: str
    amount: Decimal
    authority: str


def fee_line(fee) -> FeeLine:
    """A fee of the schedule (``ordinance.fees.fee_amount``) as a receipt line."""
    return FeeLine(fee.code, fee.description, fee.amount, fee.authority)


@dataclass
class FeeQuote:
    """The lines a payment will take, shown before the clerk takes it,
    or why it cannot be taken (the council has set no such fee), with its section."""

    lines: list[FeeLine]
    unavailable: str = ""

    @property
    def total(self) -> Decimal:
        return money_sum(ln.amount for ln in self.lines)


def fee_quote(jurisdiction, code: str, *, on) -> FeeQuote:
    """The one fee ``code`` in force on ``on`` as a quote: the same ``fee_amount`` the
    use case charges (a duplicate tag, LIC-10; a transfer, LIC-12)."""
    try:
        return FeeQuote([fee_line(fee_amount(jurisdiction, code, on=on))])
    except RuleUnavailable as exc:
        return FeeQuote([], str(exc))


def receipt_create(
    *,
    jurisdiction,
    payer,
    lines: list[FeeLine],
    method: str,
    reference: str,
    actor,
    now: datetime,
    voids: Receipt | None = None,
    void_reason: str = "",
    regarding=(),
    tendered: Decimal | None = None,
) -> Receipt:
    """A numbered receipt with its lines (LIC-06, REC-01); call inside a transaction.

    ``regarding``: the dog licenses the money concerns (issued, transferred, a duplicate
    tag), listed on each license's page. A void copies the original's payer snapshot and
    the licenses it concerned, so it reads the same as the original and sits beside it.
    ``tendered`` is the cash handed over: recorded with the receipt,
    never later, and refused when it does not cover the total.
    """
    total = money_sum(ln.amount for ln in lines)
    tendered = _tendered_checked(tendered, method=method, total=total)
    number = allocate(jurisdiction, RECEIPTS)
    receipt = Receipt.objects.create(
        jurisdiction=jurisdiction,
        number=number,
        issued_at=now,
        issued_by=actor,
        payer=payer,
        payer_name=voids.payer_name if voids else payer.name,
        payer_address=voids.payer_address if voids else payer.address,
        method=method,
        reference=reference,
        total=total,
        amount_tendered=tendered,
        voids=voids,
        void_reason=void_reason,
    )
    ReceiptLine.objects.bulk_create(
        ReceiptLine(
            receipt=receipt,
            position=i,
            code=ln.code,
            description=ln.description,
            amount=ln.amount,
            authority=ln.authority,
        )
        for i, ln in enumerate(lines)
    )
    licenses = list(voids.regarding.all()) if voids else list(regarding)
    if licenses:
        receipt.regarding.add(*licenses)
    Event.record(
        "licensing.receipt.issued",
        receipt,
        actor=actor,
        at=now,
        summary=f"Receipt {number}: {receipt.total}",
        data={"number": number, "total": str(receipt.total)},
    )
    return receipt


def _tendered_checked(tendered: Decimal | None, *, method: str, total: Decimal) -> Decimal | None:
    """The cash tendered, or None; refused (next to the field) below the total."""
    if tendered is None or method != PaymentMethod.CASH:
        return None
    tendered = to_money(tendered)
    if tendered < total:
        raise Refused.because(
            TENDERED,
            _("The amount tendered ($%(tendered)s) is less than the total ($%(total)s).")
            % {"tendered": tendered, "total": total},
            field="amount_tendered",
        )
    return tendered
