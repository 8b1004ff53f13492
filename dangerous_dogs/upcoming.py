"""The deadlines of dangerous-dog cases for the staff home page, read with one query of
the cases and one of the hearings whatever the number of cases.

Each kind of deadline is a condition on the case, written once here as an annotation:
the contest period ending (DD-04), the declaration due after a default (DD-09), the
appeal period of a panel's ruling (DD-20), and the dangerous dog's compliance deadline
(DD-13). A case meeting two conditions shows under each.
"""

from collections.abc import Iterable
from datetime import date

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part
from dangerous_dogs.models import (
    Appeal,
    CaseStatus,
    DeclaredBy,
    Designation,
    DesignationCase,
    PanelHearing,
)
from ordinance.deadlines import Deadline, UpcomingQuery, register_upcoming, resolve_upcoming
from ordinance.rules import rule_citation

KINDS = ("contest", "declaration", "appeal", "compliance")


def _conditions(start: date, end: date) -> dict[str, Q]:
    return {
        "contest": Q(status=CaseStatus.NOTICE_SERVED, contest_deadline__range=(start, end)),
        # Due since the default: an outstanding declaration shows from today.
        "declaration": Q(status=CaseStatus.DEFAULTED, defaulted_on__lte=end),
        "appeal": Q(
            status=CaseStatus.DECLARED,
            declared_by=DeclaredBy.PANEL,
            appeal_deadline__range=(start, end),
        )
        & ~Q(Exists(Appeal.objects.filter(case=OuterRef("pk")))),
        "compliance": Q(
            status=CaseStatus.DECLARED,
            declared_designation=Designation.DANGEROUS,
            compliance_deadline__range=(start, end),
        ),
    }


def _deadline(kind: str, case: DesignationCase, start: date) -> Deadline:
    city = case.jurisdiction
    if kind == "contest":
        return Deadline(
            due=case.contest_deadline,
            what=_("Contest period ends"),
            subject=case.number,
            consequence=_("default the next day unless a written request came in"),
            citation=case.contest_citation,
            url=case.get_absolute_url(),
            jurisdiction=city.short_name,
        )
    if kind == "declaration":
        return Deadline(
            due=max(case.defaulted_on, start),
            what=_("Declaration due"),
            subject=case.number,
            consequence=_("the officer issues the declaration"),
            citation=rule_citation(city, "DD-09"),
            url=reverse("dangerous_dogs:case_detail", args=[case.pk]),
            jurisdiction=city.short_name,
        )
    if kind == "appeal":
        return Deadline(
            due=case.appeal_deadline,
            what=_("Appeal period ends"),
            subject=case.number,
            consequence=_(
                "the panel's ruling stands unless an appeal was filed with the City Clerk"
            ),
            citation=case.appeal_citation,
            url=reverse("dangerous_dogs:appeal", args=[case.pk]),
            jurisdiction=city.short_name,
        )
    return Deadline(
        due=case.compliance_deadline,
        what=_("Dangerous dog: comply or destroy"),
        subject=case.number,
        consequence=_("seizure the next day"),
        citation=case.compliance_citation,
        url=reverse("dangerous_dogs:case_detail", args=[case.pk]),
        jurisdiction=city.short_name,
    )


def case_query(
    *, jurisdiction_ids, start: date, end: date, kinds: Iterable[str] = KINDS
) -> UpcomingQuery:
    """The cases' deadlines of these kinds, one query."""
    conditions = {kind: q for kind, q in _conditions(start, end).items() if kind in kinds}
    flags = {
        f"is_{kind}": ExpressionWrapper(q, output_field=BooleanField())
        for kind, q in conditions.items()
    }
    anywhere = Q()
    for q in conditions.values():
        anywhere |= q
    cases = DesignationCase.objects.filter(anywhere, jurisdiction_id__in=jurisdiction_ids).annotate(
        **flags
    )

    def deadlines(found) -> Iterable[Deadline]:
        for case in found["cases"]:
            for kind in conditions:
                if getattr(case, f"is_{kind}"):
                    yield _deadline(kind, case, start)

    part = Part(cases, related=("jurisdiction",), extra=tuple(flags))
    return UpcomingQuery({"cases": part}, deadlines)


def case_deadlines(**kwargs) -> list[Deadline]:
    return resolve_upcoming([case_query(**kwargs)])


def hearing_query(*, jurisdiction_ids, start: date, end: date) -> UpcomingQuery:
    """The Review Panel's hearings to be held (DD-07)."""
    hearings = PanelHearing.objects.filter(
        case__jurisdiction_id__in=jurisdiction_ids,
        case__status=CaseStatus.HEARING,
        held_on__isnull=True,
        scheduled_for__date__range=(start, end),
    )
    return UpcomingQuery(
        {"hearings": Part(hearings, related=("case__jurisdiction",))}, _hearing_deadlines
    )


def hearing_deadlines(**kwargs) -> list[Deadline]:
    return resolve_upcoming([hearing_query(**kwargs)])


def _hearing_deadlines(found) -> Iterable[Deadline]:
    for hearing in found["hearings"]:
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


@register_upcoming("dangerous_dogs.cases")
def upcoming_cases(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    yield case_query(jurisdiction_ids=jurisdiction_ids, start=start, end=end)
    yield hearing_query(jurisdiction_ids=jurisdiction_ids, start=start, end=end)
