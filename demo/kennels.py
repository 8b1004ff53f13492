"""Demo kennels: North Branch's commercial boarding kennel with its CUP decisions and the
operator's own licensed dogs (KEN-01, KEN-03, KEN-04); in Glencoe one application under
review and one denied with its appeal deadline running (KEN-04, KEN-07)."""

from collections import Counter
from datetime import date
from functools import partial
from typing import TYPE_CHECKING

from django.utils import timezone

from licensing.models import (
    Animal,
    KennelDecision,
    KennelStatus,
    Owner,
    PaymentMethod,
    Sex,
    Species,
)
from licensing.services import registry as registry_services
from licensing.services.kennels.animals import kennel_animal_add
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    review_steps,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.denials import kennel_deny
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.payments import kennel_fee_collect
from ordinance.calendar import add_calendar_days, add_months

from .counter_timeline import Timeline, certificate
from .registry import DEMO_ADOPTION_AGE_MONTHS, PLANS

if TYPE_CHECKING:
    from .licensing import Season


KENNEL_DOGS = (
    ("Ranger", "German Shorthaired Pointer", "Liver roan", Sex.MALE),
    ("Koda", "Siberian Husky", "Grey and white", Sex.FEMALE),
    ("Hazel", "Labrador Retriever", "Chocolate", Sex.FEMALE),
    ("Finn", "Border Collie", "Black and white", Sex.MALE),
    ("Willow", "Golden Retriever", "Golden", Sex.FEMALE),
)


class NorthBranchKennel:
    """A commercial boarding kennel: applied last autumn, CUP approved by the Council,
    conditions met, state law checked, fee paid and license issued in January. The
    operator's own dogs are each licensed too (KEN-03), after the kennel license, since
    without it five adult dogs exceed the premises limit (KEN-01)."""

    def __init__(self, season: "Season"):
        self.season, self.city, self.today = season, season.city, season.today
        self.timeline, self.clerk = season.timeline, season.clerk
        year = self.today.year
        self.days = {
            k: self.timeline.open_on_or_after(d)
            for k, d in {
                "applied": date(year - 1, 9, 15),
                "cup": date(year - 1, 11, 10),
                "zoning": date(year - 1, 12, 16),
                "statute": date(year, 1, 5),
                "issued": date(year, 1, 6),
            }.items()
        }

    def plan(self) -> None:
        """Application and decisions are recorded now (they carry their own dates and
        take no money); the fee, the license and the dogs' licenses go on the timeline."""
        if self.days["applied"] > self.today:
            return
        kennel = self.apply()
        # A profile with other steps than these three leaves the kennel under review.
        for step, decision in zip(
            ("cup", "zoning", "statute"), self.decisions(kennel), strict=False
        ):
            if self.days[step] > self.today:
                return
            name, capacity, reasons = decision.pop("by")
            kennel_decision_record(
                kennel=kennel,
                decided=DecidedBy(name, capacity, self.days[step], reasons),
                actor=self.clerk,
                now=self.timeline.at(self.days[step]),
                **decision,
            )
        kennel.refresh_from_db()
        if kennel.status != KennelStatus.APPROVED:
            return
        dogs = self.register_dogs(kennel.owner)
        if self.timeline.add(self.days["issued"], partial(self.issue, kennel, dogs)):
            licensed_on = self.timeline.open_on_or_after(add_calendar_days(self.days["issued"], 1))
            for dog in dogs:
                self.season.plan_issue(dog, licensed_on, story="kennel")

    def apply(self):
        at = self.timeline.at(self.days["applied"])
        owner = registry_services.owner_create(
            jurisdiction=self.city,
            actor=self.clerk,
            now=at,
            kind=Owner.Kind.ORGANIZATION,
            organization_name="Sunrise River Boarding Kennel, LLC",
            first_name="Dale",
            last_name="Bergstrom",
            address_line="41210 Flink Avenue",
            city=self.city.short_name,
            postal_code=PLANS[self.city.slug].postal_code,
            phone="(651) 555-0163",
            email="stay@sunriseriverkennel.example.org",
        )
        return kennel_apply(
            owner=owner,
            premises=kennel_premises_for(owner),
            application=KennelRequest(
                business_nature="Boarding dogs; the operator also keeps its own dogs",
                dog_count=len(KENNEL_DOGS),
                cat_count=0,
                cup_reference=f"CUP {self.today.year - 1}-03",
            ),
            actor=self.clerk,
            on=self.days["applied"],
            now=at,
        )

    def decisions(self, kennel) -> list[dict]:
        """One decision per review step of the city's profile, in its order (KEN-04)."""
        year = self.today.year - 1
        made = [
            (
                "North Branch City Council",
                "City Council",
                KennelDecision.Outcome.APPROVED,
                f"CUP {year}-03 approved by Council Resolution {year}-41.",
                "",
            ),
            (
                "Dana Kowalski",
                "Zoning Administrator",
                KennelDecision.Outcome.CONDITIONS,
                "Site inspected: runs fenced, sound-insulated building, septic approved.",
                "Dogs kept indoors from 10 p.m. to 7 a.m.\nNo more than 24 dogs boarded at once.",
            ),
            (
                "Olivia Brandt",
                "Animal Control Officer",
                KennelDecision.Outcome.APPROVED,
                "Inspected under Minn. Stat. 347.30-347.40: records and housing in order.",
                "",
            ),
        ]
        steps = review_steps(kennel, on=self.days["applied"]).value
        return [
            {
                "step": step,
                "by": (by, capacity, reasons),
                "outcome": outcome,
                "conditions": conditions,
            }
            for step, (by, capacity, outcome, reasons, conditions) in zip(steps, made, strict=False)
        ]

    def register_dogs(self, owner) -> list[Animal]:
        """The operator's own dogs, with certificates from last summer's clinic day."""
        dogs, rng = [], self.season.rng
        given = date(self.today.year - 1, 6, 12)
        for index, (name, breed, color, sex) in enumerate(KENNEL_DOGS):
            born = date(self.today.year - 3 - index % 3, 1 + index * 2, 10)
            dog = registry_services.animal_register(
                owner=owner,
                actor=self.clerk,
                on=self.days["applied"],
                species=Species.DOG,
                name=name,
                breed=breed,
                color=color,
                sex=sex,
                sterilized=False,
                date_of_birth=born,
                acquired_on=add_months(born, DEMO_ADOPTION_AGE_MONTHS),
            )
            registry_services.vaccination_record(
                animal=dog,
                actor=self.clerk,
                on=self.days["applied"],
                now=self.timeline.at(self.days["applied"]),
                **certificate(rng, self.city, given),
            )
            dogs.append(dog)
        return list(
            Animal.objects.filter(pk__in=[d.pk for d in dogs])
            .select_related("owner", "premises", "jurisdiction")
            .order_by("pk")
        )

    def issue(self, kennel, dogs, at) -> None:
        """Fee and license with its PDF (FEE-02, KEN-05), then the dogs listed under it."""
        kennel_issue(
            kennel=kennel, actor=self.clerk, now=at, method=PaymentMethod.CHECK, reference="10482"
        )
        kennel.refresh_from_db()
        for dog in dogs:
            kennel_animal_add(
                kennel=kennel, animal=dog, now=at, on=timezone.localdate(at), actor=self.clerk
            )
        # The license as issued lists no dogs yet: the clerk prints it again with them.
        kennel_document_issue(kennel=kennel, actor=self.clerk, now=at)
        self.season.counts["kennels"] += 1


# --- Glencoe: one application under review, one denied with the appeal running -----------

GLENCOE_APPLICANTS = {
    "review": {
        "first_name": "Julie",
        "last_name": "Ness",
        "address_line": "12150 Falcon Avenue",
        "phone": "(320) 555-0148",
        "email": "julie.ness@example.org",
    },
    "denied": {
        "first_name": "Travis",
        "last_name": "Hedlund",
        "address_line": "1844 Kennedy Avenue",
        "phone": "(320) 555-0191",
        "email": "travis.hedlund@example.org",
    },
}
# Days before today (demo choices, not ordinance values).
GLENCOE_AGO = {
    "denied_applied": 30,
    "review_applied": 18,
    "review_step": 12,
    "denied_on": 4,
    "notified_on": 3,
}
ADMINISTRATOR = ("Mark Larson", "City Administrator")


def glencoe_kennels(jurisdiction, users, *, today, now) -> Counter:
    """Fee taken with each application (701 Subd. 4(C)); the City Administrator's review
    done on one, the Planning Division's referral pending (4(D)); the other denied and the
    applicant notified, so the 10-day appeal runs (4(E), KEN-07)."""
    timeline = Timeline(jurisdiction, today=today, now=now, seed=f"kennels-{jurisdiction.slug}")
    clerk, counts = users["clerk.glencoe"], Counter()
    day = {
        k: timeline.open_on_or_before(add_calendar_days(today, -ago))
        for k, ago in GLENCOE_AGO.items()
    }
    denied = _glencoe_application(
        timeline,
        clerk,
        day["denied_applied"],
        GLENCOE_APPLICANTS["denied"],
        dogs=6,
        nature="Breeding and selling Labrador Retrievers",
    )
    review = _glencoe_application(
        timeline,
        clerk,
        day["review_applied"],
        GLENCOE_APPLICANTS["review"],
        dogs=4,
        nature="Boarding dogs for neighbours and hunters",
    )
    first, *_rest = review_steps(review, on=today).value
    kennel_decision_record(
        kennel=review,
        step=first,
        outcome=KennelDecision.Outcome.APPROVED,
        decided=DecidedBy(
            name=ADMINISTRATOR[0],
            capacity=ADMINISTRATOR[1],
            on=day["review_step"],
            reasons="Application complete and fee paid; referred to the Planning Division "
            "for zoning review.",
        ),
        actor=clerk,
        now=timeline.at(day["review_step"]),
    )
    kennel_deny(
        kennel=denied,
        step=first,
        decided=DecidedBy(
            name=ADMINISTRATOR[0],
            capacity=ADMINISTRATOR[1],
            on=day["denied_on"],
            reasons="The lot is in the R-1 single-family district and the application shows no "
            "site plan for the outdoor runs.",
        ),
        actor=clerk,
        notified_on=max(day["notified_on"], day["denied_on"]),
        now=timeline.at(day["denied_on"]),
    )
    counts.update(kennels=2, kennel_receipts=2)
    return counts


def _glencoe_application(timeline, clerk, day, person, *, dogs, nature):
    at = timeline.at(day)
    city = timeline.city
    owner = registry_services.owner_create(
        jurisdiction=city,
        actor=clerk,
        now=at,
        city=city.short_name,
        postal_code=PLANS[city.slug].postal_code,
        **person,
    )
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature=nature, dog_count=dogs, cat_count=0, cup_reference=""
        ),
        actor=clerk,
        on=day,
        now=at,
    )
    kennel_fee_collect(
        kennel=kennel,
        method=PaymentMethod.CHECK,
        reference=f"{timeline.rng.randrange(1001, 9999)}",
        actor=clerk,
        now=at,
    )
    return kennel
