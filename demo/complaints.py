"""Demo complaints and a citation, made through the complaints and citations services,
so an officer signing in finds a day's work.

North Branch: a dog running at large on a 10-foot leash in a park three days ago (read as
at large, Sec. 6-28), cited instead of impounded (Sec. 6-69) with its citation issued;
a barking complaint still open with a follow-up date. Glencoe: two barking complaints at
one address two days apart (the repeat address shows at intake; the second is where a
seizure checklist would start, Subd. 5), and a litter complaint closed with a warning.
Loaded once; a second run adds nothing.
"""

from collections import Counter
from datetime import datetime, timedelta

from django.utils import timezone

from citations.services.issuance import Charge, Defendant, issue_citation
from citations.services.violations import propose_for
from complaints.models import Complaint, Outcome
from complaints.services import complaint_intake, facts_record, record_outcome
from licensing.models import Animal, AnimalStatus

from .scene import scene_days

COURT = {"north-branch": "Chisago County District Court", "glencoe": "McLeod County District Court"}


def _dogs(city, count, skip=12):
    return list(
        Animal.objects.filter(jurisdiction=city, species="dog", status=AnimalStatus.ALIVE)
        .select_related("owner")
        .order_by("pk")[skip : skip + count]
    )


def _take(city, officer, *, kind, when: datetime, dog=None, address="", **extra):
    fields = dict(
        kind=kind,
        channel="counter",
        address_line=address or dog.owner.address_line,
        occurred_at=when,
        received_at=when + timedelta(minutes=20),
        narrative=extra.pop("narrative"),
        complainant_name=extra.pop("complainant", "Nora Lindqvist"),
        complainant_phone="651-555-0142",
        animal=dog,
        owner=dog.owner if dog else None,
        now=when + timedelta(minutes=20),
    )
    fields.update(extra)
    return complaint_intake(jurisdiction=city, actor=officer, **fields)


def _north_branch(city, officer, now) -> int:
    dogs = _dogs(city, 2)
    if len(dogs) < 2:
        return 0
    at_large, barking = dogs
    seen = (now - scene_days(3)).replace(hour=15, minute=10, second=0, microsecond=0)
    complaint = _take(
        city,
        officer,
        kind="running_at_large",
        when=seen,
        dog=at_large,
        channel="field",
        location_note="Central Park, by the pond",
        narrative="Dog on a long leash chasing geese; the owner could not hold it.",
    )
    facts_record(
        complaint=complaint,
        actor=officer,
        topic="restraint_facts",
        location="park",
        restraint="leash_held",
        leash_length_ft=10,
        handler_present=True,
        now=seen + timedelta(hours=1),
    )
    record_outcome(
        complaint=complaint, actor=officer, outcome=Outcome.CITATION, now=seen + timedelta(hours=1)
    )
    _code, proposal = propose_for(
        jurisdiction=city, violation="at_large", violated_at=seen, animal=at_large
    )
    charge = Charge(
        violation="at_large",
        violated_at=seen,
        location=complaint.location_note,
        court=COURT[city.slug],
        appearance_on=timezone.localdate(now) + scene_days(30),
        charge_class=proposal.charge_class,
    )
    issue_citation(
        jurisdiction=city,
        actor=officer,
        charge=charge,
        defendant=Defendant(owner=at_large.owner, animal=at_large),
        source=complaint,
        source_label=str(complaint),
        now=seen + timedelta(hours=1, minutes=30),
    )
    night = (now - scene_days(1)).replace(hour=22, minute=5, second=0, microsecond=0)
    _take(
        city,
        officer,
        kind="barking",
        when=night,
        dog=barking,
        narrative="Barking in the back yard for most of an hour.",
        follow_up_on=timezone.localdate(now) + scene_days(2),
    )
    return 2


def _glencoe(city, officer, now) -> int:
    dogs = _dogs(city, 2)
    if len(dogs) < 2:
        return 0
    barker, litter = dogs
    for days in (3, 1):
        night = (now - scene_days(days)).replace(hour=23, minute=15, second=0, microsecond=0)
        _take(
            city,
            officer,
            kind="barking",
            when=night,
            dog=barker,
            complainant="Henrik Dahl",
            narrative="Continuous barking from the kennel behind the house since 11 pm.",
        )
    seen = (now - scene_days(2)).replace(hour=8, minute=40, second=0, microsecond=0)
    complaint = _take(
        city,
        officer,
        kind="litter",
        when=seen,
        dog=litter,
        address="Glencoe City Park",
        channel="field",
        narrative="Owner walked away from the dog's feces on the park path.",
    )
    facts_record(
        complaint=complaint,
        actor=officer,
        topic="litter_facts",
        place="park",
        cleaned_up=False,
        carrying_materials=False,
        now=seen + timedelta(minutes=30),
    )
    record_outcome(
        complaint=complaint,
        actor=officer,
        outcome=Outcome.WARNING,
        reason="First report; owner given bags and the section.",
        now=seen + timedelta(minutes=40),
    )
    return 3


def fill_demo_complaints(jurisdictions, *, users: dict, now: datetime) -> Counter:
    officer, made = users["officer"], Counter()
    fill = {"north-branch": _north_branch, "glencoe": _glencoe}
    for city in jurisdictions:
        if city.slug not in fill or Complaint.objects.filter(jurisdiction=city).exists():
            continue
        made[city.slug] = fill[city.slug](city, officer, now)
    return made
