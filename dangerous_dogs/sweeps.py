"""Dangerous-dog sweeps of the notice stage (DD-04, DD-09).

- ``dangerous_dogs.contest_default``: a case whose owner received the notice of intent
  and whose stored ``contest_deadline`` is before today, still NOTICE_SERVED (no request
  in time moved it), defaults (Subd. 15(J)): recorded once, with the deadline in the
  Event. The period is counted in calendar days, so a deadline on a Saturday defaults on
  the Sunday. A run after days down catches up once per case.

Upcoming deadlines: "Contest period ends" (NOTICE_SERVED) and "Declaration due"
(DEFAULTED: the officer issues the declaration), the Review Panel's hearings to hold and
the appeal periods still open, each with its section.
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from dangerous_dogs.models import CaseStatus, DeclaredBy, DesignationCase, PanelHearing
from dangerous_dogs.services.cases import citation, mark_defaulted
from ordinance.deadlines import Deadline, register_sweep, register_upcoming
from ordinance.rules import rule_citation
from ordinance.sweeps import run_sweep


@register_sweep("dangerous_dogs.contest_default")
def sweep_contest_default(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="dangerous-dog contest periods end",
        action="dangerous_dogs.case.defaulted",
        due=DesignationCase.objects.filter(
            status=CaseStatus.NOTICE_SERVED, contest_deadline__lt=today
        ).select_related("jurisdiction"),
        still_applies=lambda c: c.status == CaseStatus.NOTICE_SERVED and c.contest_deadline < today,
        transition=lambda c, at: mark_defaulted(c, on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_upcoming("dangerous_dogs.notice_stage")
def upcoming_notice_stage(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    contested = DesignationCase.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=CaseStatus.NOTICE_SERVED,
        contest_deadline__range=(start, end),
    ).select_related("jurisdiction")
    for case in contested:
        yield Deadline(
            due=case.contest_deadline,
            what=_("Contest period ends"),
            subject=case.number,
            consequence=_("default the next day unless a written request came in"),
            citation=case.contest_citation,
            url=case.get_absolute_url(),
            jurisdiction=case.jurisdiction.short_name,
        )
    defaulted = DesignationCase.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=CaseStatus.DEFAULTED,
        defaulted_on__lte=end,
    ).select_related("jurisdiction")
    for case in defaulted:
        yield Deadline(
            # Due since the default: an outstanding declaration shows from today.
            due=max(case.defaulted_on, start),
            what=_("Declaration due"),
            subject=case.number,
            consequence=_("the officer issues the declaration"),
            citation=citation(case.jurisdiction, "DD-09"),
            url=reverse("dangerous_dogs:case_detail", args=[case.pk]),
            jurisdiction=case.jurisdiction.short_name,
        )


@register_upcoming("dangerous_dogs.panel_stage")
def upcoming_panel_stage(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """The Review Panel's hearings to be held, and the appeal periods still open (DD-07,
    DD-20): the appeal period ends ``appeal_deadline`` days after the ruling."""
    hearings = PanelHearing.objects.filter(
        case__jurisdiction_id__in=jurisdiction_ids,
        case__status=CaseStatus.HEARING,
        held_on__isnull=True,
        scheduled_for__date__range=(start, end),
    ).select_related("case__jurisdiction")
    for hearing in hearings:
        case = hearing.case
        yield Deadline(
            due=timezone.localdate(hearing.scheduled_for),
            what=_("Review Panel hearing"),
            subject=case.number,
            consequence=_("record each member's vote and the findings"),
            citation=rule_citation(case.jurisdiction, "DD-07"),
            url=reverse("dangerous_dogs:hearing", args=[case.pk]),
            jurisdiction=case.jurisdiction.short_name,
        )
    appealable = (
        DesignationCase.objects.filter(
            jurisdiction_id__in=jurisdiction_ids,
            status=CaseStatus.DECLARED,
            declared_by=DeclaredBy.PANEL,
            appeal_deadline__range=(start, end),
        )
        .exclude(appeals__isnull=False)
        .select_related("jurisdiction")
    )
    for case in appealable:
        yield Deadline(
            due=case.appeal_deadline,
            what=_("Appeal period ends"),
            subject=case.number,
            consequence=_(
                "the panel's ruling stands unless an appeal was filed with the City Clerk"
            ),
            citation=case.appeal_citation,
            url=reverse("dangerous_dogs:appeal", args=[case.pk]),
            jurisdiction=case.jurisdiction.short_name,
        )
