"""Demo dangerous dogs: Glencoe's Subd. 15 proceeding at three stages, and a North Branch
classification (DD-29).

Glencoe: a dog whose owner received the notice of intent five days ago (the contest
period running), one whose period ran out (defaulted: the declaration is due), and one
declared dangerous by default whose owner's receipt started the compliance clock. North
Branch: a dog an officer classified vicious (Sec. 6-73). The cases move through the
model's transitions (each records its Event) and the services of this branch; every
deadline comes from the profile (``deadline``). Idempotent: nothing is added once a
Glencoe case or a North Branch classification exists.
"""

from collections import Counter
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    CaseStatus,
    Classification,
    Criterion,
    DeclaredBy,
    Designation,
    DesignationCase,
    IncidentKind,
)
from dangerous_dogs.services.classification import classification_record
from dangerous_dogs.services.common import deadline, next_number, procedure_or_refuse
from dangerous_dogs.services.declaration import declaration_received, declare
from licensing.models import Animal, AnimalStatus

# (days back the incident was, what happened, victim, criterion, designation)
GLENCOE_INCIDENTS = [
    (
        12,
        IncidentKind.BITE_ANIMAL,
        "A neighbor's cat, Whiskers",
        Criterion.UNPROVOKED_BITE,
        Designation.POTENTIALLY_DANGEROUS,
    ),
    (
        40,
        IncidentKind.CHASE,
        "A cyclist, Sam Ortiz, on 13th Street",
        Criterion.CHASED,
        Designation.POTENTIALLY_DANGEROUS,
    ),
    (
        30,
        IncidentKind.BITE_HUMAN,
        "A jogger, Dana Reyes, on the Buffalo Creek trail",
        Criterion.SUBSTANTIAL_HARM,
        Designation.DANGEROUS,
    ),
]


def _days(n: int) -> timedelta:
    """An offset of the demo's scene (when things happened), never an ordinance period:
    every deadline comes from the profile through ``deadline``."""
    return timedelta(days=n)


def _dogs(city, count, skip=3):
    """Living dogs of the city's demo registry, past the first few other demos use."""
    return list(
        Animal.objects.filter(
            jurisdiction=city,
            species="dog",
            status=AnimalStatus.ALIVE,
            is_law_enforcement=False,
        )
        .select_related("owner", "jurisdiction")
        .order_by("pk")[skip : skip + count]
    )


def _case(city, dog, officer, now, days_back, kind, victim, criterion, designation):
    today = timezone.localdate(now)
    occurred = now - _days(days_back)
    return DesignationCase.objects.create(
        jurisdiction=city,
        number=next_number(city, today.year),
        animal=dog,
        owner=dog.owner,
        status=CaseStatus.DETERMINED,
        status_changed_at=occurred,
        incident_kind=kind,
        occurred_at=occurred,
        location=dog.owner.address_line or "Glencoe",
        off_owner_property=True,
        victim=victim,
        injuries="Puncture wounds treated at Glencoe Regional Health"
        if kind == IncidentKind.BITE_HUMAN
        else "",
        witnesses="A neighbor who saw it from across the street",
        criterion=criterion,
        designation=designation,
        exemption_findings=(
            "No trespass, tort or crime on the owner's premises; no provocation now or before; "
            "no crime: the victim was on a public way."
        ),
        investigated_by_name="Olivia Brandt",
        investigated_on=timezone.localdate(occurred) + _days(1),
        officer=officer,
    )


def _served(case, officer, now, received_on):
    case.contest_deadline, case.contest_citation = deadline(
        case.jurisdiction, "dd_contest_days", received_on
    )
    case.notice_received_on = received_on
    common = {"actor": officer, "at": now, "rule_citation": case.contest_citation}
    case.move(
        CaseStatus.NOTICE_ISSUED,
        allowed=(CaseStatus.DETERMINED,),
        action="dangerous_dogs.case.notice_issued",
        summary=_("Notice of intent issued"),
        **common,
    )
    case.move(
        CaseStatus.NOTICE_SERVED,
        allowed=(CaseStatus.NOTICE_ISSUED,),
        action="dangerous_dogs.case.notice_served",
        summary=_("Owner received the notice of intent on %(date)s; contest by %(due)s")
        % {"date": received_on, "due": case.contest_deadline},
        fields=("notice_received_on", "contest_deadline", "contest_citation"),
        **common,
    )


def _defaulted(case, officer, now):
    case.defaulted_on = case.contest_deadline + _days(1)
    case.move(
        CaseStatus.DEFAULTED,
        allowed=(CaseStatus.NOTICE_SERVED,),
        actor=officer,
        at=now,
        action="dangerous_dogs.case.defaulted",
        summary=_("Not contested by %(date)s: declaration due") % {"date": case.contest_deadline},
        rule_citation=case.contest_citation,
        fields=("defaulted_on",),
    )


def fill_demo_dangerous_dogs(jurisdictions, *, users: dict, now: datetime) -> Counter:
    by_slug = {j.slug: j for j in jurisdictions}
    nb, gl = by_slug["north-branch"], by_slug["glencoe"]
    made = Counter()
    officer = users["officer"]
    today = timezone.localdate(now)
    if not DesignationCase.objects.filter(jurisdiction=gl).exists():
        procedure_or_refuse(gl, on=today)
        dogs = _dogs(gl, len(GLENCOE_INCIDENTS))
        for dog, incident in zip(dogs, GLENCOE_INCIDENTS, strict=False):
            days_back = incident[0]
            case = _case(gl, dog, officer, now, *incident)
            received = today - _days(days_back - 7)
            _served(case, officer, now, received)
            if case.contest_deadline < today:
                _defaulted(case, officer, now)
                if case.designation == Designation.DANGEROUS:
                    declared_on = case.defaulted_on + _days(2)
                    declare(
                        case,
                        designation=Designation.DANGEROUS,
                        by=DeclaredBy.DEFAULT,
                        on=declared_on,
                        document=None,
                        actor=officer,
                        at=now,
                        allowed=(CaseStatus.DEFAULTED,),
                        citation=case.contest_citation,
                    )
                    declaration_received(
                        case=case,
                        received_on=min(declared_on + _days(2), today),
                        actor=officer,
                        at=now,
                        today=today,
                    )
            made[gl.slug] += 1
    if not Classification.objects.filter(jurisdiction=nb).exists():
        dogs = _dogs(nb, 1)
        if dogs:
            classification_record(
                animal=dogs[0],
                term="vicious",
                reason="Bit a mail carrier on the sidewalk on Main Street without provocation.",
                evidence="The carrier's written statement; photos of the bite.",
                classified_on=today - _days(3),
                classified_by_name="Olivia Brandt",
                actor=officer,
                at=now,
            )
            made[nb.slug] += 1
    return made
