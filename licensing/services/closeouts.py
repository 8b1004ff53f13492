"""The clerk's daily close-out and deposit slip (REC-01, LIC-06).

At the end of a day a clerk counts the drawer against the receipts they issued in a city
that day: totals by payment method, the checks with their numbers, the voids and the
range of receipt numbers. Closing the day snapshots those totals in a ``CloseOut``,
claims each receipt for it (a receipt is in one close-out only: a unique constraint) and
prints the deposit slip, archived like every other document.

A closed day is locked: nothing in it is rewritten. A receipt issued later that day by
the same clerk, or a void that corrects a receipt of a closed day, is a new receipt and
belongs to that clerk's next close-out.

Receipts paid online (a provider's payment) never passed through a drawer:
the provider's own statement reconciles them, so a close-out leaves them out. So are
receipts of licenses a clinic sold (and their voids): the clinic collected the money,
and its monthly statement says what it owes the city.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.roles import ADMINISTRATOR
from licensing.models import CloseOut, CloseOutReceipt, PaymentMethod, Receipt, ReceiptMethod
from licensing.services.reports import _day_bounds
from ordinance.models import Event
from ordinance.money import money_sum
from ordinance.refusals import Refused

CLOSE_OUT = gettext_lazy("Close-out")
# A screen limit on the list of days still open: a safeguard, not an ordinance value.
OPEN_DAYS_SHOWN = 31


@dataclass
class DaySummary:
    """What a close-out counts: the receipts, totals by method, checks, voids, range."""

    receipts: list[Receipt]
    totals: dict[str, Decimal] = field(default_factory=dict)

    def __post_init__(self):
        for method in PaymentMethod.values:
            self.totals[method] = money_sum(r.total for r in self.receipts if r.method == method)

    @property
    def total(self) -> Decimal:
        return money_sum(self.totals.values())

    @property
    def deposit(self) -> Decimal:
        """What goes to the bank: cash and checks (card payments settle on their own)."""
        return self.totals[PaymentMethod.CASH] + self.totals[PaymentMethod.CHECK]

    @property
    def by_method(self) -> list[tuple[str, Decimal]]:
        return [(label, self.totals[value]) for value, label in PaymentMethod.choices]

    @property
    def checks(self) -> list[Receipt]:
        return [r for r in self.receipts if r.method == PaymentMethod.CHECK and not r.voids_id]

    @property
    def voids(self) -> list[Receipt]:
        return [r for r in self.receipts if r.voids_id]

    @property
    def first_receipt(self) -> int | None:
        return min((r.number for r in self.receipts), default=None)

    @property
    def last_receipt(self) -> int | None:
        return max((r.number for r in self.receipts), default=None)


def _drawer(queryset):
    """Receipts whose money passed through the counter's drawer: not paid online, not
    collected by a clinic."""
    return queryset.filter(online_payment__isnull=True, voids__online_payment__isnull=True).exclude(
        method=ReceiptMethod.CLINIC
    )


def _counter_receipts(*, clerk, jurisdiction):
    """The receipts this clerk took at the counter in the city."""
    return _drawer(Receipt.objects.filter(issued_by=clerk, jurisdiction=jurisdiction))


def _open_receipts(*, clerk, jurisdiction, day: date):
    low, high = _day_bounds(day, day)  # the local day, as the revenue report counts it
    return _counter_receipts(clerk=clerk, jurisdiction=jurisdiction).filter(
        issued_at__gte=low, issued_at__lt=high, closeout_entry__isnull=True
    )


def _with_voided(queryset):
    return queryset.select_related("voids").order_by("number")


def closeout_open_summary(*, clerk, jurisdiction, day: date) -> DaySummary:
    """The day's receipts by this clerk in this city not yet in a close-out."""
    return DaySummary(
        list(_with_voided(_open_receipts(clerk=clerk, jurisdiction=jurisdiction, day=day)))
    )


def closeout_summary(closeout: CloseOut) -> DaySummary:
    """A closed day's receipts, as counted when it was closed."""
    return DaySummary(list(_with_voided(Receipt.objects.filter(closeout_entry__closeout=closeout))))


def closeout_open_days(*, clerk, jurisdiction_ids) -> list[dict]:
    """Days on which this clerk has receipts not yet closed, newest first, per city."""
    local = timezone.get_current_timezone()
    rows = (
        _drawer(
            Receipt.objects.filter(
                issued_by=clerk, jurisdiction_id__in=jurisdiction_ids, closeout_entry__isnull=True
            )
        )
        .annotate(day=TruncDate("issued_at", tzinfo=local))
        .values("jurisdiction_id", "jurisdiction__name", "day")
        .annotate(last=Max("number"))
        .order_by("-day", "jurisdiction__name")
    )
    return list(rows[:OPEN_DAYS_SHOWN])


def closeouts_for(user):
    """Close-outs a user may see: their own; an administrator's, every clerk's of their
    cities."""
    qs = CloseOut.objects.for_user(user)
    if not user.has_role(ADMINISTRATOR):
        qs = qs.filter(clerk=user)
    return qs.select_related("jurisdiction", "clerk")


def closeout_close(*, clerk, jurisdiction, day: date, now: datetime | None = None) -> CloseOut:
    """Close the clerk's day in a city: snapshot the totals, claim the receipts, print the
    deposit slip. Refused when there is nothing to close or another close took them."""
    now = now or timezone.now()
    if day > timezone.localdate(now):
        raise Refused.because(CLOSE_OUT, _("A day in the future cannot be closed."), field="day")
    with transaction.atomic():
        # Row locks: a second "Close the day" waits here for the first to commit. Its
        # rows were only locked, not changed, so PostgreSQL does not re-check them: read
        # them again (a new snapshot) to drop the ones the first close claimed.
        locked = _open_receipts(clerk=clerk, jurisdiction=jurisdiction, day=day)
        pks = list(locked.select_for_update(of=("self",)).values_list("pk", flat=True))
        receipts = list(_with_voided(Receipt.objects.filter(pk__in=pks, closeout_entry=None)))
        if not receipts:
            raise Refused.because(
                CLOSE_OUT, _("There are no receipts left to close for this day."), field="day"
            )
        summary = DaySummary(receipts)
        try:
            with transaction.atomic():
                closeout = _closeout_create(
                    summary, clerk=clerk, jurisdiction=jurisdiction, day=day, now=now
                )
        except IntegrityError as exc:  # another close claimed a receipt first
            raise Refused.because(
                CLOSE_OUT, _("These receipts were closed meanwhile; reload the page.")
            ) from exc
        Event.record(
            "licensing.closeout.closed",
            closeout,
            actor=clerk,
            at=now,
            summary=f"Close-out {day} #{closeout.sequence}: {closeout.total}",
            data={
                "day": str(day),
                "receipts": closeout.receipt_count,
                "first": closeout.first_receipt,
                "last": closeout.last_receipt,
                "total": str(closeout.total),
            },
        )
        deposit_slip_issue(closeout=closeout, summary=summary, now=now)
    return closeout


def _closeout_create(summary: DaySummary, *, clerk, jurisdiction, day, now) -> CloseOut:
    earlier = CloseOut.objects.filter(jurisdiction=jurisdiction, clerk=clerk, business_day=day)
    sequence = (earlier.aggregate(n=Max("sequence"))["n"] or 0) + 1
    closeout = CloseOut.objects.create(
        jurisdiction=jurisdiction,
        clerk=clerk,
        business_day=day,
        sequence=sequence,
        closed_at=now,
        closed_by=clerk,
        receipt_count=len(summary.receipts),
        first_receipt=summary.first_receipt,
        last_receipt=summary.last_receipt,
        cash_total=summary.totals[PaymentMethod.CASH],
        check_total=summary.totals[PaymentMethod.CHECK],
        card_total=summary.totals[PaymentMethod.CARD],
        total=summary.total,
        void_count=len(summary.voids),
    )
    CloseOutReceipt.objects.bulk_create(
        CloseOutReceipt(closeout=closeout, receipt=r) for r in summary.receipts
    )
    return closeout


# --- The deposit slip -------------------------------------------------------------------


def _slip_context(closeout: CloseOut, summary: DaySummary) -> dict:
    clerk = closeout.clerk
    return {
        "closeout": {
            "business_day": closeout.business_day,
            "sequence": closeout.sequence,
            "closed_at": closeout.closed_at,
            "clerk": clerk.get_full_name() or clerk.username,
            "receipt_count": closeout.receipt_count,
            "first_receipt": closeout.first_receipt,
            "last_receipt": closeout.last_receipt,
            "total": closeout.total,
            "deposit": summary.deposit,
        },
        "by_method": [
            {"method": str(label), "amount": amount} for label, amount in summary.by_method
        ],
        "checks": [
            {"receipt": r.number, "payer": r.payer_name, "check": r.reference, "amount": r.total}
            for r in summary.checks
        ],
        "voids": [
            {
                "receipt": r.number,
                "voids": r.voids.number,
                "method": r.get_method_display(),
                "refunded": -r.total,
                "reason": r.void_reason,
            }
            for r in summary.voids
        ],
    }


def deposit_slip_issue(*, closeout: CloseOut, summary: DaySummary, now: datetime):
    """Archive the deposit slip of a close-out (architecture.md "Documents")."""
    from notices.services import document_issue

    return document_issue(
        kind="deposit_slip",
        template="deposit_slip.html",
        context=_slip_context(closeout, summary),
        jurisdiction=closeout.jurisdiction,
        actor=closeout.closed_by,
        title=_("Deposit slip"),
        number=f"{closeout.business_day:%Y-%m-%d}-{closeout.clerk.username}-{closeout.sequence}",
        subject=closeout,
        now=now,
    )
