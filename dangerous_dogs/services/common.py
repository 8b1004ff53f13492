"""What every dangerous-dog service shares: whether the city has the Subd. 15 procedure at
all, the case numbers' series, the case under a lock, refusals gathered for a whole form,
a document's service recorded, and the deadlines (counted in ``ordinance.calendar``).
Who may act and dates in the future are the kernel's checks (``kernel.checks``).

The procedure runs where the city's profile has ``dd_contest_days`` (DD-29: North Branch
has none); ``procedure_or_refuse`` is the one answer to "may this city run it".
"""

from contextlib import contextmanager
from datetime import date

from django.contrib.contenttypes.models import ContentType
from django.utils.translation import gettext as _

from dangerous_dogs.models import DesignationCase
from notices.models import ServiceRecord
from ordinance.calendar import due_date
from ordinance.models import Jurisdiction
from ordinance.refusals import Check, Refused
from ordinance.rules import Rule, rule_citation, rule_in_force

PROCEDURE_KEY = "dd_contest_days"
SERIES = "dangerous-dog"  # the case numbers' series (kernel.numbers)


def has_procedure(jurisdiction: Jurisdiction, *, on: date) -> bool:
    """Whether the city's ordinance has the Subd. 15 proceeding (DD-29)."""
    return rule_in_force(jurisdiction, PROCEDURE_KEY, on=on, optional=True) is not None


def procedure_or_refuse(jurisdiction: Jurisdiction, *, on: date) -> Rule:
    rule = rule_in_force(jurisdiction, PROCEDURE_KEY, on=on, optional=True)
    if rule is None:
        raise Refused.because(
            _("Dangerous dogs"),
            _(
                "%(city)s's ordinance has no procedure to declare a dog dangerous; an officer "
                "may record a classification instead."
            )
            % {"city": jurisdiction},
            rule_citation(jurisdiction, "DD-29"),
        )
    return rule


def locked(case: DesignationCase) -> DesignationCase:
    """The case read again under a row lock (call inside a transaction): two officers
    recording the same step at once see each other's write."""
    return (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction")
        .get(pk=case.pk)
    )


@contextmanager
def gathered(errors: list):
    """Collect a refusal's checks into ``errors`` instead of raising at once, so a page
    shows every problem of the form together; the block stops at its first refusal."""
    try:
        yield
    except Refused as refused:
        errors.extend(refused.checks)


def deadline(jurisdiction: Jurisdiction, key: str, start: date) -> tuple[date, str]:
    """(due date, section) of the rule ``key`` counted from ``start``."""
    due, rule = due_date(jurisdiction, key, start)
    return due, rule.citation


def blanks(values: dict, label, citation="") -> list[Check]:
    """Every blank text, each next to its field: {field: (value, message)}."""
    return [
        Check(str(label), "fail", str(message), citation, field)
        for field, (value, message) in values.items()
        if not (value or "").strip()
    ]


def service_record(
    case, *, document, method, served_at, served_to, actor, received_on=None, **details
) -> ServiceRecord:
    """How a document of the case (a hearing notice, a copy of the findings) was served."""
    return ServiceRecord.objects.create(
        document=document,
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        method=method,
        served_to=served_to[:200],
        served_by_name=(actor.get_full_name() or actor.username)[:120],
        served_at=served_at,
        received_on=received_on,
        succeeded=True,
        recorded_by=actor,
        **details,
    )
