"""The demo counter's timeline: every step at the counter dated on an open counter day,
never after today, and replayed in date order through the real services; the payment
and rabies certificate a demo resident brings."""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from functools import partial

from django.utils import timezone

from licensing.models import Animal, PaymentMethod, RabiesVaccination
from ordinance.calendar import add_business_days, add_calendar_days, is_business_day
from ordinance.refusals import Refused

from .registry import PLANS

METHODS = ((PaymentMethod.CASH, 45), (PaymentMethod.CHECK, 30), (PaymentMethod.CARD, 25))
OPENS, CLOSES = 8 * 60, 16 * 60 + 30  # counter hours, minutes after midnight


@dataclass(order=True)
class Step:
    at: datetime
    seq: int
    run: Callable[[], None] = field(compare=False)


@dataclass
class PlannedIssue:
    dog: Animal
    day: date
    method: str
    reference: str
    story: str = ""


class Timeline:
    """Steps dated on open counter days, never after today, run in order."""

    def __init__(self, jurisdiction, *, today: date, now: datetime, seed: str):
        self.city, self.today, self.now = jurisdiction, today, now
        self.rng = random.Random(seed)
        self.steps: list[Step] = []
        self._open: dict[date, date] = {}

    def open_on_or_after(self, day: date) -> date:
        if day not in self._open:
            self._open[day] = add_business_days(self.city, add_calendar_days(day, -1), 1)
        return self._open[day]

    def open_on_or_before(self, day: date) -> date:
        while not is_business_day(self.city, day):
            day = add_calendar_days(day, -1)
        return day

    def at(self, day: date) -> datetime:
        minutes = self.rng.randrange(OPENS, CLOSES)
        moment = datetime.combine(day, time(minutes // 60, minutes % 60))
        return min(timezone.make_aware(moment), self.now)

    def add(self, day: date, run: Callable[[datetime], None]) -> bool:
        """Schedule ``run(at)`` on ``day``; False (and nothing scheduled) if after today."""
        if day > self.today:
            return False
        at = self.at(day)
        self.steps.append(Step(at, len(self.steps), partial(run, at)))
        return True

    def play(self) -> int:
        """Run every step in date order; returns how many the services refused. A refusal
        rolls back only its own step (each service runs in its own atomic block)."""
        refused = 0
        for step in sorted(self.steps):
            try:
                step.run()
            except Refused:
                refused += 1
        return refused


def payment(rng: random.Random) -> tuple[str, str]:
    method = rng.choices([m for m, _ in METHODS], weights=[w for _, w in METHODS])[0]
    reference = {
        PaymentMethod.CHECK: f"{rng.randrange(1001, 9999)}",
        PaymentMethod.CARD: f"{rng.randrange(10000):04d}",
    }.get(method, "")
    return method, reference


def certificate(rng: random.Random, jurisdiction, given: date) -> dict:
    """A rabies certificate from one of the city's demo clinics (RAB-05)."""
    clinic = rng.choice(PLANS[jurisdiction.slug].clinics)
    vet, license = rng.choice(clinic.vets)
    return {
        "vaccinated_on": given,
        "duration_years": RabiesVaccination.Duration.THREE_YEARS,
        "manufacturer": "Zoetis",
        "product": "Defensor 3",
        "lot_number": f"DF{rng.randrange(10000, 99999)}",
        "rabies_tag_number": f"{clinic.code}-{given.year}-{rng.randrange(1, 99999):05d}",
        "veterinarian_name": vet,
        "veterinarian_license": license,
        "clinic_name": clinic.name,
        "clinic_address": clinic.address,
    }
