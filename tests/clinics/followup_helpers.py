"""Shared setup for the vaccinated-but-unlicensed follow-up.

On March 2, 2026 in North Branch (licenses for dogs over six months, NB Sec. 6-60; the
2026 fee $18.00 by Demo Res. 2025-14; a late penalty of 50% after January 31, Sec.
6-65(c)):

- Ann Berg (mailing address, e-mail) has Rex, vaccinated, never licensed, subject to
  licensing since Nov 2, 2022 (due by Dec 2, 2022, Sec. 6-61: late), and Molly, acquired
  Feb 20, 2026 (due by Mar 22, 2026: not late);
- Carl Dahl (no e-mail) has Pip, vaccinated, whose 2025 license expired;
- Nora Nohome (no street address, an e-mail) has Zed, vaccinated, never licensed;
- and animals that are not on the list: a licensed dog, an unvaccinated dog, a dog whose
  vaccination ran out, a vaccinated puppy under the license age, a vaccinated cat
  (North Branch licenses no cats), and a Glencoe dog (Glencoe licenses nothing, 701
  Subd. 2(D) deleted).
"""

from datetime import date

from licensing.models import LicenseStatus
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import LicenseFactory
from tests.rabies.helpers import vaccinate

TODAY = date(2026, 3, 2)
CLOCK = "2026-03-02T10:00"


def dog(owner, name, **fields):
    return AnimalFactory(
        jurisdiction=owner.jurisdiction, owner=owner, name=name, premises=None, **fields
    )


def licensed(animal, clerk, *, year, status=LicenseStatus.ACTIVE, issued_on=None):
    return LicenseFactory(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        owner=animal.owner,
        issued_by=clerk,
        term_start=date(year, 1, 1),
        expires_on=date(year, 12, 31),
        issued_on=issued_on or date(year, 1, 5),
        status=status,
    )


def build_followup_world(north_branch, glencoe, clerk) -> dict:
    ann = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ann",
        last_name="Berg",
        address_line="12 Elm Street",
        unit="Apt 3",
        postal_code="55056",
        email="ann@example.org",
    )
    carl = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Carl",
        last_name="Dahl",
        address_line="40 Oak Avenue",
        email="",
    )
    nora = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Nora",
        last_name="Nohome",
        address_line="",
        email="nora@example.org",
    )
    other = OwnerFactory(jurisdiction=north_branch, first_name="Olga", last_name="Other")
    rex = dog(ann, "Rex", date_of_birth=date(2022, 5, 1), acquired_on=date(2022, 7, 15))
    molly = dog(ann, "Molly", date_of_birth=date(2024, 1, 1), acquired_on=date(2026, 2, 20))
    pip = dog(carl, "Pip")
    zed = dog(nora, "Zed")
    for animal in (rex, molly, pip, zed):
        vaccinate(animal, date(2025, 9, 1), years=3)
    licensed(pip, clerk, year=2025, status=LicenseStatus.EXPIRED)
    excluded = {
        "licensed": dog(other, "Lucky"),
        "unvaccinated": dog(other, "Nova"),
        "lapsed_vaccine": dog(other, "Old"),
        "puppy": dog(other, "Pup", date_of_birth=date(2025, 10, 1), acquired_on=None),
        "cat": dog(other, "Tom", species="cat"),
        "glencoe": dog(OwnerFactory(jurisdiction=glencoe, last_name="Zzgl"), "Fritz"),
    }
    licensed(excluded["licensed"], clerk, year=2026)
    for name in ("licensed", "puppy", "cat", "glencoe"):
        vaccinate(excluded[name], date(2025, 12, 1))
    vaccinate(excluded["lapsed_vaccine"], date(2024, 1, 5), years=1)
    return {
        "ann": ann,
        "carl": carl,
        "nora": nora,
        "rex": rex,
        "molly": molly,
        "pip": pip,
        "zed": zed,
        **excluded,
    }
