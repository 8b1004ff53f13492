"""Per-premises animal limits (KEN-01; NB Sec. 6-29 with 6-28 "Adult animal", GL 701 Subd. 4(A)).

Counts adult dogs and cats kept at a premises on a date. "Adult" follows the city's own
operator: North Branch counts at 6 months or older ("gte"), Glencoe over 6 months ("gt").
Past a limit a kennel license is needed; the licensing service refuses the extra animal
unless the premises holds a current kennel license.
"""

from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from licensing.models import Animal, AnimalStatus, KennelLicense, KennelStatus, Species
from ordinance.calendar import add_months
from ordinance.refusals import refusing
from ordinance.rules import profile_for, rule_in_force, rules_in_force

COUNTED_SPECIES = (Species.DOG, Species.CAT)
TOTAL_KEY = "max_total_dogs_cats_without_kennel"
LIMIT_KEYS = (
    "adult_age_months",
    "adult_age_comparison",
    "max_adult_dogs_without_kennel",
    "max_adult_cats_without_kennel",
)


def passes_age(date_of_birth: date | None, *, months: int, comparison: str, on: date) -> bool:
    """Whether an animal born on ``date_of_birth`` is past ``months`` on ``on`` (DEF-01).

    Calendar months (relativedelta), compared as dates: "gt" is strictly over the
    anniversary, "gte" on or after it. An unknown birth date counts as past the age: the
    clerk is shown that the age was assumed.
    """
    if date_of_birth is None:
        return True
    reached = add_months(date_of_birth, months)
    return on > reached if comparison == "gt" else on >= reached


def is_adult(animal: Animal, *, jurisdiction, on: date) -> bool:
    months = rule_in_force(jurisdiction, "adult_age_months", on=on)
    comparison = rule_in_force(jurisdiction, "adult_age_comparison", on=on)
    return passes_age(animal.date_of_birth, months=months.value, comparison=comparison.value, on=on)


@dataclass
class LimitCheck:
    ok: bool
    counts: dict = field(default_factory=dict)  # {"dog": 3, "cat": 1, "total": 4}
    limits: dict = field(default_factory=dict)  # {"dog": 3, "cat": 3, "total": None}
    message: str = ""
    citation: str = ""
    kennel: KennelLicense | None = None
    unknown_ages: int = 0


def _current_kennel(premises, on):
    candidates = KennelLicense.objects.filter(premises=premises, status=KennelStatus.ACTIVE)
    return next((k for k in candidates if k.is_current(on)), None)


@refusing(_l("Animal limit"))
def premises_limit_check(*, premises, on: date, adding: Animal | None = None) -> LimitCheck:
    """Count the adult dogs and cats at ``premises`` (plus ``adding``) against the limits."""
    jurisdiction = premises.jurisdiction
    keys = list(LIMIT_KEYS)
    if TOTAL_KEY in profile_for(jurisdiction).values:  # Glencoe only: one query for all
        keys.append(TOTAL_KEY)
    rules = rules_in_force(jurisdiction, keys, on=on)
    months, comparison = rules["adult_age_months"], rules["adult_age_comparison"]
    dog_rule = rules["max_adult_dogs_without_kennel"]
    cat_rule = rules["max_adult_cats_without_kennel"]
    total_rule = rules.get(TOTAL_KEY)

    animals = list(
        Animal.objects.filter(
            premises=premises, status=AnimalStatus.ALIVE, species__in=COUNTED_SPECIES
        ).only("pk", "species", "date_of_birth")
    )
    if adding is not None and adding.pk not in {a.pk for a in animals}:
        animals.append(adding)
    adults = [
        a
        for a in animals
        if a.species in COUNTED_SPECIES
        and passes_age(a.date_of_birth, months=months.value, comparison=comparison.value, on=on)
    ]
    counts = {
        "dog": sum(a.species == Species.DOG for a in adults),
        "cat": sum(a.species == Species.CAT for a in adults),
    }
    counts["total"] = counts["dog"] + counts["cat"]
    limits = {
        "dog": dog_rule.value,
        "cat": cat_rule.value,
        "total": total_rule.value if total_rule else None,
    }
    over = [k for k in ("dog", "cat", "total") if limits[k] is not None and counts[k] > limits[k]]
    citations = sorted({r.citation for r in (dog_rule, cat_rule, total_rule, months) if r})
    check = LimitCheck(
        ok=not over,
        counts=counts,
        limits=limits,
        citation="; ".join(citations),
        unknown_ages=sum(a.date_of_birth is None for a in adults),
    )
    if not over:
        check.message = _(
            "%(dogs)s adult dog(s) and %(cats)s adult cat(s) at this premises: "
            "within the limit without a kennel license."
        ) % {"dogs": counts["dog"], "cats": counts["cat"]}
        return check
    check.kennel = _current_kennel(premises, on)
    if check.kennel is not None:
        check.ok = True
        check.message = _(
            "Over the limit for a household, but the premises holds kennel license %(number)s."
        ) % {"number": check.kennel.number}
        return check
    check.message = _(
        "%(dogs)s adult dog(s) and %(cats)s adult cat(s) at this premises exceed the limit "
        "of %(limit)s without a kennel license: a kennel license is needed first."
    ) % {"dogs": counts["dog"], "cats": counts["cat"], "limit": _describe_limits(limits)}
    return check


def _describe_limits(limits: dict) -> str:
    text = _("%(dog)s adult dogs and %(cat)s adult cats") % limits
    if limits["total"] is not None:
        text += _(", %(total)s in total") % limits
    return text


@dataclass
class LimitLine:
    label: str  # "adult dogs"
    count: int
    limit: int

    @property
    def over(self) -> bool:
        return self.count > self.limit


@refusing(_l("Animal limit"))
def premises_limit_status(*, premises, on: date):
    """The premises' counts against the city's own limits, for the animal and owner pages
    (KEN-01; "2 of 3 adult dogs — North Branch Sec. 6-29"). Returns (check, lines)."""
    check = premises_limit_check(premises=premises, on=on)
    labels = {"dog": _("adult dogs"), "cat": _("adult cats"), "total": _("in all")}
    lines = [
        LimitLine(labels[k], check.counts[k], check.limits[k])
        for k in ("dog", "cat", "total")
        if check.limits[k] is not None
    ]
    return check, lines
