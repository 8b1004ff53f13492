"""Demo licensing: a North Branch counter that has run two seasons, and kennels.

``fill_demo_licensing`` runs after the demo registry (licensing/demo.py). For North Branch
it receives last year's, this year's and next year's tag stock, then replays last year's
and this year's licensing seasons through the real services (``license_issue``,
``tag_replace_lost``, ``license_transfer``, ``receipt_void``, the kennel services) in date
order, passing ``on=`` and ``now=`` rather than moving the clock, so receipt and tag
numbers follow the days they were issued on. Most dogs old enough are licensed; those who
came after the penalty-free window paid the late penalty (LIC-13, FEE-03); a few dogs are
unlicensed, or were licensed last year only and expire in the December 31 sweep (LIC-07).
A commercial boarding kennel is active with its CUP decisions (KEN-03, KEN-04). Glencoe
gets one kennel application under review and one denied with its appeal deadline running
(KEN-04, KEN-07), which the staff home page lists as an upcoming deadline.

Nothing here is an ordinance value: windows, ages, fees and limits come from the profile
through the services; the shares and hours below only make the demo look lived-in. Each
license is checked with ``license_assess`` when it is planned, so the plan holds only
licenses the services will issue. The services issue every license's, receipt's and
kennel's documents; under ``rendering_deferred`` their PDFs are laid out from the frozen
data the first time someone prints them, which keeps demo_data as fast as before.
"""

from collections import Counter
from datetime import date, datetime
from functools import partial

from django.db.models import prefetch_related_objects

from licensing.models import (
    Animal,
    AnimalStatus,
    Owner,
    PaymentMethod,
    RabiesVaccination,
    Species,
    TagStock,
)
from licensing.services import registry as registry_services
from licensing.services.assessment import license_assess, license_term
from licensing.services.expiry import licenses_expire
from licensing.services.licenses import license_issue, license_transfer
from licensing.services.tags import tag_replace_lost, tag_stock_receive
from licensing.services.voids import receipt_void
from notices.services import rendering_deferred
from ordinance.calendar import add_calendar_days, add_months
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import rules_in_force

from .counter_timeline import PlannedIssue, Timeline, certificate, payment
from .kennels import NorthBranchKennel, glencoe_kennels
from .registry import PLANS

LICENSED = "licensing.demo.licensed"
TAG_VENDOR = "Demo vendor"
TAGS_PER_YEAR = 2000
# Demo shares (not ordinance values): who comes in when, and who never does.
IN_WINDOW_SHARE = 0.72
LAST_YEAR_SHARE = 0.6
UNLICENSED_SHARE = 0.04
BOOSTER_SHARE = 0.7
EARLIER_CERTIFICATE_SHARE = 0.85
PUPPY_SHOT_MONTHS = 3  # demo puppies get their first rabies shot at about twelve weeks
CERTIFICATE_COPY = (
    "duration_years",
    "manufacturer",
    "product",
    "veterinarian_name",
    "veterinarian_license",
    "clinic_name",
    "clinic_address",
)
SEASON_LAST_MONTH = 3  # the demo season runs from January to March
# Demo story gaps in days after the license was issued (not ordinance values).
STORY_GAPS = {"lost_tag": 45, "transfer": 70, "void": 9}
RULE_KEYS = (
    "renewal_window_days_after_term_start",
    "new_subject_grace_days",
    "license_age_months",
    "license_age_comparison",
)


def fill_demo_licensing(jurisdictions, *, users: dict, today: date, now: datetime) -> dict:
    """Load demo licensing once per city; returns {slug: counts} (empty when loaded before)."""
    done = {}
    loaders = {"north-branch": north_branch_licensing, "glencoe": glencoe_kennels}
    for jurisdiction in jurisdictions:
        loader = loaders.get(jurisdiction.slug)
        if (
            loader is None
            or Event.objects.filter(action=LICENSED, jurisdiction=jurisdiction).exists()
        ):
            done[jurisdiction.slug] = {}
            continue
        # Every license, receipt and kennel gets its documents through the services; their
        # PDFs are laid out at the first print, not all ~1,300 now (notices.services).
        with rendering_deferred():
            counts = loader(jurisdiction, users, today=today, now=now)
        Event.record(
            LICENSED, jurisdiction=jurisdiction, summary="Demo licensing loaded", data=dict(counts)
        )
        done[jurisdiction.slug] = counts
    return done


# --- North Branch ------------------------------------------------------------------------


def north_branch_licensing(jurisdiction, users, *, today, now) -> Counter:
    season = Season(jurisdiction, users, today=today, now=now)
    season.receive_tag_stock()
    dogs = season.dogs()
    for year in (today.year, today.year - 1):
        season.plan_year(dogs, year)
    season.plan_resident()
    NorthBranchKennel(season).plan()
    season.plan_stories()
    season.counts["refused"] += season.timeline.play()
    swept = licenses_expire(now=now)  # last year's licenses: the December 31 sweep (LIC-07)
    season.counts["expired"] += swept.applied
    return season.counts


class Season:
    """Tag stock, two licensing seasons and the counter's stories, for one city."""

    def __init__(self, jurisdiction, users, *, today, now):
        self.city, self.today = jurisdiction, today
        self.clerk, self.resident = users["clerk"], users.get("resident")
        self.timeline = Timeline(
            jurisdiction, today=today, now=now, seed=f"licenses-{jurisdiction.slug}"
        )
        self.rng = self.timeline.rng
        self.rules = rules_in_force(jurisdiction, RULE_KEYS, on=today)
        self.planned: list[PlannedIssue] = []
        self.issued: dict[int, object] = {}  # animal pk -> latest IssueResult
        self.counts = Counter()

    def receive_tag_stock(self) -> None:
        """Tags for a year arrive in the autumn before it (LIC-08, REC-02)."""
        for year in (self.today.year - 1, self.today.year, self.today.year + 1):
            if TagStock.objects.filter(jurisdiction=self.city, year=year).exists():
                continue
            received = self.timeline.open_on_or_after(date(year - 1, 10, 15))
            tag_stock_receive(
                jurisdiction=self.city,
                year=year,
                first_number=1,
                last_number=TAGS_PER_YEAR,
                received_on=min(received, self.today),
                vendor=TAG_VENDOR,
                actor=self.clerk,
            )
            self.counts["tag_stock"] += 1

    def dogs(self) -> list[Animal]:
        """Household dogs (the resident's and the kennel's are planned on their own)."""
        return list(
            Animal.objects.filter(
                jurisdiction=self.city,
                species=Species.DOG,
                status=AnimalStatus.ALIVE,
                owner__user__isnull=True,
                owner__kind=Owner.Kind.PERSON,
                premises__isnull=False,
            )
            .select_related("owner", "premises", "jurisdiction")
            .prefetch_related("vaccinations")
            .order_by("pk")
        )

    # --- when each owner came in -----------------------------------------------------------

    def subject_on(self, dog: Animal) -> date | None:
        """Later of acquisition and passing the license age (LIC-03, LIC-13)."""
        age = None
        if dog.date_of_birth:
            age = add_months(dog.date_of_birth, self.rules["license_age_months"].value)
            if self.rules["license_age_comparison"].value == "gt":
                age = add_calendar_days(age, 1)
        return max((d for d in (dog.acquired_on, age) if d), default=None)

    def season_day(self, year: int) -> date:
        """Most come in the penalty-free days after the term starts; the rest by March."""
        term_start, _expires, _renewal = license_term(jurisdiction=self.city, on=date(year, 1, 2))
        free_until = add_calendar_days(
            term_start, self.rules["renewal_window_days_after_term_start"].value
        )
        first, last = term_start, free_until
        if self.rng.random() > IN_WINDOW_SHARE:
            first = add_calendar_days(free_until, 1)
            last = add_calendar_days(add_months(date(year, SEASON_LAST_MONTH, 1), 1), -1)
        offset = self.rng.randrange((last - first).days + 1)
        return self.timeline.open_on_or_after(add_calendar_days(first, offset))

    def license_day(self, dog: Animal, year: int) -> date | None:
        """The day the owner came in that year; None when not (yet) that year."""
        day = self.season_day(year)
        subject = self.subject_on(dog)
        if subject and subject > day:  # newly subject: came within the grace days
            grace = self.rules["new_subject_grace_days"].value
            day = add_calendar_days(subject, self.rng.randrange(1, grace + 1))
        return self.in_year(self.timeline.open_on_or_after(day), year)

    def in_year(self, day: date, year: int) -> date | None:
        _start, expires, _renewal = license_term(jurisdiction=self.city, on=day)
        return day if expires.year == year and day <= self.today else None

    # --- planning -----------------------------------------------------------------------------

    def plan_year(self, dogs: list[Animal], year: int) -> None:
        """This year first, then last year: certificates found for this year's licenses
        may also cover last year's."""
        this_year = year == self.today.year
        for dog in dogs:
            share = 1 - UNLICENSED_SHARE if this_year else LAST_YEAR_SHARE
            if self.rng.random() > share:
                continue  # not licensed that year: the demo needs some of those
            day = self.license_day(dog, year)
            if day is None:
                continue  # not subject yet, or the day is still to come
            day = self.eligible_day(dog, day, year)
            if day is not None:
                self.plan_issue(dog, day)
            elif this_year:
                self.counts["left_unlicensed"] += 1

    def eligible_day(self, dog: Animal, day: date, year: int) -> date | None:
        """``day`` if a rabies certificate qualifies (LIC-05, LIC-15); else the owner brings
        the certificate before the one on file, or fetches a booster first; else comes
        after the next vet visit (often late); else None: not licensed that year."""
        if self.passes(dog, day):
            return day
        if self.rng.random() < EARLIER_CERTIFICATE_SHARE and self.earlier_certificate(dog, day):
            return day
        if self.rng.random() < BOOSTER_SHARE and self.booster(dog, day):
            return day
        return self.after_the_vet(dog, day, year)

    def after_the_vet(self, dog: Animal, day: date, year: int) -> date | None:
        """The owner came a few days after the dog's next vaccination, if still that year."""
        after = [v.vaccinated_on for v in dog.vaccinations.all() if day < v.vaccinated_on]
        if not after:
            return None
        later = self.in_year(
            self.timeline.open_on_or_after(
                add_calendar_days(min(after), self.rng.randrange(1, 10))
            ),
            year,
        )
        return later if later and self.passes(dog, later) else None

    def passes(self, dog: Animal, day: date, vaccination=None) -> bool:
        return license_assess(
            animal=dog, owner=dog.owner, on=day, vaccination=vaccination
        ).can_issue

    def record_certificate(self, dog: Animal, day: date, fields: dict) -> bool:
        """Record a certificate if it makes the license issuable on ``day``."""
        if not self.passes(dog, day, RabiesVaccination(**fields)):
            return False
        registry_services.vaccination_record(
            animal=dog, actor=self.clerk, on=day, now=self.timeline.at(day), **fields
        )
        # The same object is planned for both years: it must see the new certificate.
        dog._prefetched_objects_cache.pop("vaccinations", None)
        prefetch_related_objects([dog], "vaccinations")
        return True

    def earlier_certificate(self, dog: Animal, day: date) -> bool:
        """The certificate before the first one on file after ``day``: the demo registry
        holds only the latest, but the owner kept the previous one."""
        after = [v for v in dog.vaccinations.all() if v.vaccinated_on > day]
        if not after:
            return False
        first = min(after, key=lambda v: v.vaccinated_on)
        given = add_months(first.vaccinated_on, -12 * first.duration_years)
        if given > day or given < add_months(dog.date_of_birth or given, PUPPY_SHOT_MONTHS):
            return False
        fields = {f: getattr(first, f) for f in CERTIFICATE_COPY} | {
            "vaccinated_on": given,
            "lot_number": f"{first.product[:2].upper()}{self.rng.randrange(10000, 99999)}",
            "rabies_tag_number": f"{first.rabies_tag_number.split('-')[0]}-{given.year}-"
            f"{self.rng.randrange(1, 99999):05d}",
        }
        found = self.record_certificate(dog, day, fields)
        self.counts["earlier_certificates"] += found
        return found

    def booster(self, dog: Animal, day: date) -> bool:
        """The owner fetched a rabies booster first and brought the certificate (LIC-05)."""
        given = add_calendar_days(day, -self.rng.randrange(1, 15))
        if dog.date_of_birth and given < add_months(dog.date_of_birth, PUPPY_SHOT_MONTHS):
            return False
        found = self.record_certificate(dog, day, certificate(self.rng, self.city, given))
        self.counts["boosters"] += found
        return found

    def plan_issue(self, dog: Animal, day: date, **kwargs) -> PlannedIssue:
        method, reference = payment(self.rng)
        planned = PlannedIssue(dog, day, method, reference, **kwargs)
        if self.timeline.add(day, partial(self.issue, planned)):
            self.planned.append(planned)
        return planned

    def issue(self, planned: PlannedIssue, at: datetime) -> None:
        result = license_issue(
            animal=planned.dog,
            owner=planned.dog.owner,
            actor=self.clerk,
            on=planned.day,
            method=planned.method,
            reference=planned.reference,
            now=at,
        )
        self.issued[planned.dog.pk] = result
        self.counts["licenses"] += 1
        self.counts["late_penalties"] += result.license.late_penalty

    def plan_resident(self) -> None:
        """The demo resident's dog is licensed, with its receipt and certificate PDFs."""
        dogs = (
            Animal.objects.filter(
                owner__user=self.resident,
                jurisdiction=self.city,
                species=Species.DOG,
                status=AnimalStatus.ALIVE,
            )
            .select_related("owner", "premises", "jurisdiction")
            .prefetch_related("vaccinations")
        )
        for dog in dogs if self.resident else ():
            day = self.license_day(dog, self.today.year)
            day = day and self.eligible_day(dog, day, self.today.year)
            if day:
                self.plan_issue(dog, day, story="resident")

    # --- counter stories: a lost tag, a transfer, a bounced check ---------------------------

    def plan_stories(self) -> None:
        candidates = [p for p in self.planned if p.day.year == self.today.year and not p.story]
        self.rng.shuffle(candidates)
        for story, plan in (
            ("lost_tag", self.lost_tag),
            ("transfer", self.transfer),
            ("void", self.bounced_check),
        ):
            for planned in candidates:
                day = self.timeline.open_on_or_after(
                    add_calendar_days(planned.day, STORY_GAPS[story])
                )
                if not planned.story and day < self.today:
                    planned.story = story
                    plan(planned, day)
                    break

    def license_of(self, planned: PlannedIssue):
        """The IssueResult a story continues; refused (so skipped) if it was never issued."""
        if planned.dog.pk not in self.issued:
            raise Refused([])
        return self.issued[planned.dog.pk]

    def lost_tag(self, planned: PlannedIssue, day: date) -> None:
        """LIC-10: the tag is marked lost and a duplicate with a new number is issued."""

        def run(at):
            self.issued[planned.dog.pk] = tag_replace_lost(
                license=self.license_of(planned).license,
                actor=self.clerk,
                on=day,
                method=PaymentMethod.CASH,
                now=at,
            )
            self.counts["lost_tags"] += 1

        self.timeline.add(day, run)

    def transfer(self, planned: PlannedIssue, day: date) -> None:
        """LIC-12: a neighbour takes the dog over, with its license, for the transfer fee."""

        def run(at):
            new_owner = registry_services.owner_create(
                jurisdiction=self.city,
                actor=self.clerk,
                now=at,
                first_name="Marit",
                last_name="Engstrom",
                address_line="38950 Grand Avenue",
                city=self.city.short_name,
                postal_code=PLANS[self.city.slug].postal_code,
                phone="(651) 555-0177",
                email="marit.engstrom@example.org",
            )
            self.issued[planned.dog.pk] = license_transfer(
                license=self.license_of(planned).license,
                new_owner=new_owner,
                actor=self.clerk,
                on=day,
                method=PaymentMethod.CARD,
                reference="4417",
                now=at,
            )
            self.counts["transfers"] += 1

        self.timeline.add(day, run)

    def bounced_check(self, planned: PlannedIssue, day: date) -> None:
        """LIC-06: the check came back unpaid; the receipt is voided by a new one, the
        license and tag become void, and the owner pays again in cash the next day."""
        planned.method, planned.reference = PaymentMethod.CHECK, "2214"

        def run(at):
            receipt_void(
                receipt=self.license_of(planned).receipt,
                actor=self.clerk,
                now=at,
                reason="Check returned unpaid by the bank; owner to pay again in cash",
            )
            self.counts["voided_receipts"] += 1

        if self.timeline.add(day, run):
            again = self.plan_issue(
                planned.dog,
                self.timeline.open_on_or_after(add_calendar_days(day, 1)),
                story="paid again",
            )
            again.method, again.reference = PaymentMethod.CASH, ""


# --- The North Branch boarding kennel (KEN-03, KEN-04, KEN-05) ---------------------------
