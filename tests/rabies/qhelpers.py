"""Helpers of the quarantine tests: a bite on Friday, December 18, 2026."""

from datetime import date

from rabies.models import BiteStatus
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import at, make_bite, vaccinate

BITE_DAY = date(2026, 12, 18)  # a Friday; ten calendar days end Monday, December 28
END = date(2026, 12, 28)


def bite(city, officer, *, vaccinated=True, animal=None, **fields):
    animal = animal if animal is not None else owned_dog(city)
    if vaccinated and animal is not None:
        vaccinate(animal, date(2026, 6, 1))
    values = {
        "bitten_at": at(BITE_DAY, 9, 15),
        "reported_at": at(BITE_DAY, 11, 0),
        "status": BiteStatus.OPEN,
    }
    values.update(fields)
    return make_bite(city, officer, animal=animal, **values)


def home(**extra):
    values = {
        "place": "home",
        "consent_by_name": "Olivia Officer",
        "consent_on": BITE_DAY,
    }
    values.update(extra)
    return values
