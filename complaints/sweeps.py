"""The officer's follow-up dates as upcoming deadlines, registered with
ordinance (``register_upcoming``) so they show in the staff home's upcoming list, read in
the home page's one query with every other app's (``UpcomingQuery``).

The overdue-citation sweep lives with citations (``citations.outcome_overdue``).
"""

from collections.abc import Iterable
from datetime import date

from django.urls import reverse
from django.utils.translation import gettext as _

from base.together import Part
from ordinance.deadlines import Deadline, UpcomingQuery, register_upcoming

from .models import Complaint


@register_upcoming("complaints.follow_ups")
def upcoming_follow_ups(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    complaints = Complaint.objects.filter(
        jurisdiction_id__in=jurisdiction_ids, follow_up_on__range=(start, end)
    )
    yield UpcomingQuery({"rows": Part(complaints, related=("jurisdiction",))}, _follow_ups)


def _follow_ups(found) -> Iterable[Deadline]:
    for complaint in found["rows"]:
        yield Deadline(
            due=complaint.follow_up_on,
            what=_("Follow up a complaint"),
            subject=str(complaint),
            consequence=_("the officer's own follow-up date"),
            citation="",
            url=reverse("complaints:detail", args=[complaint.pk]),
            jurisdiction=complaint.jurisdiction.short_name,
        )
