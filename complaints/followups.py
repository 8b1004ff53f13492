"""The officer's follow-up date on a complaint.

Set, changed or cleared by the officer from the complaint page; simple-history keeps each
version and an ``ordinance.Event`` says who changed it, from what, to what. The date
shows in the officer's upcoming list (``complaints.sweeps``).
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing

from .models import Complaint


def _label(day: date | None) -> str:
    return date_format(day) if day else _("none")


@refusing()
@transaction.atomic
def complaint_follow_up_set(
    *, complaint: Complaint, actor, follow_up_on: date | None, now: datetime | None = None
) -> Complaint:
    """Set (or clear, with None) the date the officer means to follow the complaint up."""
    now = now or timezone.now()
    refuse_unless_serves(actor, complaint.jurisdiction)
    if follow_up_on is not None and follow_up_on < timezone.localdate(now):
        raise Refused.because(
            _("Follow up on"), _("Choose today or a later date."), field="follow_up_on"
        )
    before = complaint.follow_up_on
    if before == follow_up_on:
        return complaint
    complaint.follow_up_on = follow_up_on
    complaint._history_user = actor
    complaint.save(update_fields=["follow_up_on"])
    Event.record(
        "complaints.complaint.follow_up_set",
        complaint,
        actor=actor,
        at=now,
        summary=_("Follow-up date: %(before)s → %(after)s")
        % {"before": _label(before), "after": _label(follow_up_on)},
        data={
            "before": before.isoformat() if before else None,
            "after": follow_up_on.isoformat() if follow_up_on else None,
        },
    )
    return complaint
