"""Demo dangerous dogs: Glencoe's Subd. 15 proceeding at three stages, and a North Branch
classification (DD-29).

Glencoe: a dog whose owner received the notice of intent five days ago (the contest
period running), one whose period ran out (defaulted: the declaration is due), and one
declared dangerous by default whose owner's receipt started the compliance clock. North
Branch: a dog an officer classified vicious (Sec. 6-73). Everything goes through the
services an officer's pages call (the notice and the declaration are issued PDFs), so
every deadline comes from the profile. Idempotent: nothing is added once a
Glencoe case or a North Branch classification exists.
"""

from collections import Counter
from datetime import datetime

from django.utils import timezone

from dangerous_dogs.models import (
    Classification,
    Criterion,
    Designation,
    DesignationCase,
    IncidentKind,
)
from dangerous_dogs.services import cases
from dangerous_dogs.services.classification import classification_record
from dangerous_dogs.services.common import procedure_or_refuse
from dangerous_dogs.services.declaration import declaration_received
from licensing.models import Animal, AnimalStatus

from .scene import scene_days

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
    """The investigation, the notice of intent and its receipt, through the services."""
    occurred = now - scene_days(days_back)
    investigated = occurred + scene_days(1)
    case = cases.case_open(
        animal=dog,
        actor=officer,
        incident_kind=kind,
        occurred_at=occurred,
        location=dog.owner.address_line or "Glencoe",
        off_owner_property=True,
        victim=victim,
        injuries="Puncture wounds needing stitches" if kind == IncidentKind.BITE_HUMAN else "",
        witnesses="A neighbor who saw it from across the street",
        criterion=criterion,
        designation=designation,
        exemption_findings=(
            "No trespass, tort or crime on the owner's premises; no provocation now or before; "
            "no crime: the victim was on a public way."
        ),
        investigated_by_name="Olivia Brandt",
        investigated_on=timezone.localdate(investigated),
        now=investigated,
    )
    cases.notice_issue(case=case, actor=officer, now=investigated)
    served = occurred + scene_days(7)
    cases.notice_served(
        case=case,
        actor=officer,
        method="personal",
        served_at=served,
        received_on=timezone.localdate(served),
        now=served,
    )
    return case


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
            case = _case(gl, dog, officer, now, *incident)
            if case.contest_deadline < today:
                cases.mark_defaulted(case, on=today, at=now)
                if case.designation == Designation.DANGEROUS:
                    cases.declaration_issue(case=case, actor=officer, now=now)
                    declaration_received(
                        case=case, received_on=today, actor=officer, at=now, today=today
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
                classified_on=today - scene_days(3),
                classified_by_name="Olivia Brandt",
                actor=officer,
                at=now,
            )
            made[nb.slug] += 1
    return made
