"""Issuing an approved kennel license (KEN-04): every step satisfied, fee paid, numbered,
its document issued in the same use case."""

from datetime import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.numbers import year_number
from licensing.models import KennelLicense
from licensing.services.kennels.applications import steps_outstanding
from licensing.services.kennels.common import refused
from licensing.services.kennels.denials import appeal_granted
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.payments import kennel_fee_collect, kennel_fee_voided_reason
from licensing.services.kennels.terms import kennel_expiry
from licensing.services.numbering import KENNEL_LICENSES
from ordinance.refusals import refusing


@refusing()
def kennel_issue(
    *,
    kennel,
    actor,
    now: datetime,
    method: str = "",
    reference: str = "",
    tendered: Decimal | None = None,
):
    """Issue an approved kennel license (KEN-04): every review step satisfied, fee paid."""
    on = timezone.localdate(now)
    kennel.ensure("issue")
    outstanding = steps_outstanding(kennel, on=on)
    if outstanding and not appeal_granted(kennel):
        raise refused(
            _("Not every review step is recorded as satisfied: %(steps)s.")
            % {"steps": "; ".join(outstanding)},
            kennel,
        )
    if not kennel.fee_paid:
        if not method:
            raise refused(
                kennel_fee_voided_reason(kennel)
                or _("Take the kennel fee first (choose a payment method)."),
                kennel,
            )
        kennel_fee_collect(
            kennel=kennel,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
        )
    with transaction.atomic():
        # Locked and re-read: a receipt void running now either sees the license issued
        # (and is refused) or has voided the fee first (and issuance is refused here).
        KennelLicense.objects.select_for_update().filter(pk=kennel.pk).exists()
        kennel.refresh_from_db()
        kennel.ensure("issue")
        if not kennel.fee_paid:
            raise refused(
                kennel_fee_voided_reason(kennel)
                or _("Take the kennel fee first (choose a payment method)."),
                kennel,
            )
        kennel.issue(
            actor=actor,
            on=on,
            expires_on=kennel_expiry(kennel, on=on),
            at=now,
            number=year_number(kennel.jurisdiction, KENNEL_LICENSES, on.year),
        )
        # REC-17, KEN-07: the license PDF with its conditions, in the same use case.
        kennel_document_issue(kennel=kennel, actor=actor, now=now)
    return kennel
