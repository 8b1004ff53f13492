"""Dangerous-dog sweeps after the declaration (DD-17, MN-07).

- ``dangerous_dogs.sterilization_overdue``: an order not done by its stored ``due_on``
  puts the case before a person, once (``overdue_flagged_on``): the statute has the
  authority seize the dog and have it sterilized at the owner's expense (Minn. Stat.
  347.52(d)); the owner has all of the due day.
- Upcoming: "Sterilization due" for each order not yet done.

The sweep selects on ``due_on < today`` and the state, so a second run changes nothing
and a run after days down catches up once per order (ordinance.sweeps).
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.together import Part
from dangerous_dogs.models import IN_FORCE_STATUSES, SterilizationOrder
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.sweeps import run_sweep


def _overdue(today: date):
    return SterilizationOrder.objects.filter(
        done_on__isnull=True,
        overdue_flagged_on__isnull=True,
        due_on__lt=today,
        case__status__in=IN_FORCE_STATUSES,
    )


@register_sweep("dangerous_dogs.sterilization_overdue")
def sweep_sterilization_overdue(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)

    def transition(order, at):
        order.overdue_flagged_on = today
        order.save(update_fields=["overdue_flagged_on"])
        order.case.flag(
            _(
                "Sterilization overdue since %(due)s: the authority seizes the dog and has it "
                "sterilized at the owner's expense."
            )
            % {"due": date_format(order.due_on)},
            order.due_citation,
            on=today,
            at=at,
        )
        return {"order": order.pk, "due_on": str(order.due_on)}

    return run_sweep(
        name="dangerous-dog sterilization overdue",
        action="dangerous_dogs.sterilization.overdue",
        due=_overdue(today).select_related("case"),
        still_applies=lambda o: (
            o.done_on is None
            and o.overdue_flagged_on is None
            and o.due_on < today
            and o.case.in_force
        ),
        transition=transition,
        now=now,
        dry_run=dry_run,
    )


@register_upcoming("dangerous_dogs.sterilization_due")
def upcoming_sterilization_due(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    orders = SterilizationOrder.objects.filter(
        case__jurisdiction_id__in=jurisdiction_ids,
        case__status__in=IN_FORCE_STATUSES,
        done_on__isnull=True,
        due_on__range=(start, end),
    )
    yield UpcomingQuery({"rows": Part(orders, related=("case__jurisdiction",))}, _sterilization)


def _sterilization(found) -> Iterable[Deadline]:
    for order in found["rows"]:
        yield Deadline(
            due=order.due_on,
            what=_("Sterilization due"),
            subject=order.case.number,
            consequence=_("the authority seizes the dog and has it sterilized"),
            citation=order.due_citation,
            url=reverse("dangerous_dogs:case_detail", args=[order.case_id]),
            jurisdiction=order.case.jurisdiction.short_name,
        )
