"""Charges against the owner relating to the dog, and what the court orders (DD-22, DD-24).

- A new charge, when the owner has an earlier conviction recorded on this case, is a
  subsequent offence (Subd. 15(K)(4)): the dog must be seized. The sections whose repeat
  violation counts (``gl_dd_subsequent_offence_sections``) are blank in Glencoe's text
  (Appendix D G19): while blank the case is flagged to a person, who decides; once an
  administrator sets them, the flag says seizure is required and the seizure becomes
  due (the case page's seizure section acts on it).
- On a conviction the court may (15(K)(2)) or shall (15(K)(4)) order the dog destroyed and
  the owner to pay the costs: the court's order is recorded as a ``notices.Decision``
  (kind ``dd_court_order``, outcome *ordered*) with its date and court.
"""

from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    Charge,
    ChargeOutcome,
    DesignationCase,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleNotSet, rule_citation, rule_in_force

from .common import locked, procedure_or_refuse

COURT_ORDER_KIND = "dd_court_order"
REPEAT_KEY = "gl_dd_subsequent_offence_sections"


def court_order_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-22")


def _repeat_offence(case: DesignationCase, charge: Charge, *, actor, now) -> None:
    """Subd. 15(K)(4): flag the case (blank sections) or make seizure due (set)."""
    today = timezone.localdate(now)
    earlier = (
        case.charges.filter(outcome=ChargeOutcome.CONVICTED, decided_on__lte=charge.charged_on)
        .exclude(pk=charge.pk)
        .order_by("decided_on")
        .first()
    )
    if earlier is None:
        return
    try:
        rule = rule_in_force(case.jurisdiction, REPEAT_KEY, on=charge.charged_on, optional=True)
    except RuleNotSet as blank:
        section = blank.citation or rule_citation(case.jurisdiction, "DD-24")
        case.flag(
            _(
                "A repeat offence: %(section)s requires seizure, but its sections are blank; "
                "a person decides."
            )
            % {"section": section},
            section,
            on=today,
            actor=actor,
            at=now,
        )
        return
    if rule is None:
        return
    case.flag(
        _(
            "Seizure required (%(section)s): the owner was convicted on %(date)s (%(offence)s) "
            "and is charged again."
        )
        % {
            "section": rule.citation,
            "date": date_format(earlier.decided_on),
            "offence": earlier.offence,
        },
        rule.citation,
        on=today,
        actor=actor,
        at=now,
    )
    if case.seizure_due_on is None:
        case.seizure_due_on = today
        case.save(update_fields=["seizure_due_on"])


@refusing()
@transaction.atomic
def charge_record(
    *, case: DesignationCase, charged_on: date, offence: str, actor, now: datetime | None = None
) -> Charge:
    """A misdemeanor charge against the owner relating to this dog."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = locked(case)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    if not case.is_open:
        raise case.not_now(_("recording a charge"))
    refuse_if_future(charged_on, _("Charged on"), field="charged_on", today=today)
    if not offence.strip():
        raise Refused.because(_("Offence"), _("Name the offence and its section."), field="offence")
    charge = Charge.objects.create(
        case=case, charged_on=charged_on, offence=offence.strip(), recorded_by=actor
    )
    Event.record(
        "dangerous_dogs.charge.recorded",
        case,
        actor=actor,
        at=now,
        summary=_("Owner charged on %(date)s: %(offence)s")
        % {"date": date_format(charged_on), "offence": charge.offence},
        data={"charge": charge.pk},
    )
    _repeat_offence(case, charge, actor=actor, now=now)
    return charge


@refusing()
@transaction.atomic
def charge_decide(
    *,
    charge: Charge,
    outcome: str,
    decided_on: date,
    court: str,
    actor,
    now: datetime | None = None,
) -> Charge:
    """The court's outcome of a pending charge: convicted or not; recorded once."""
    now = now or timezone.now()
    charge = (
        Charge.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=charge.pk)
    )
    refuse_unless_serves(actor, charge.case.jurisdiction)
    if charge.outcome != ChargeOutcome.PENDING:
        raise Refused.because(
            _("Charge"),
            _("Already decided: %(outcome)s on %(date)s.")
            % {
                "outcome": charge.get_outcome_display().lower(),
                "date": date_format(charge.decided_on),
            },
        )
    if outcome not in (ChargeOutcome.CONVICTED, ChargeOutcome.NOT_CONVICTED):
        raise Refused.because(
            _("Outcome"), _("Choose convicted or not convicted."), field="outcome"
        )
    if not court.strip():
        raise Refused.because(_("Court"), _("Name the court."), field="court")
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=timezone.localdate(now))
    if decided_on < charge.charged_on:
        raise Refused.because(
            _("Decided on"),
            _("The outcome cannot come before the charge (%(date)s).")
            % {"date": date_format(charge.charged_on)},
            field="decided_on",
        )
    charge.outcome, charge.decided_on, charge.court = outcome, decided_on, court.strip()
    charge.save(update_fields=["outcome", "decided_on", "court"])
    Event.record(
        "dangerous_dogs.charge.decided",
        charge.case,
        actor=actor,
        at=now,
        summary=_("%(offence)s: %(outcome)s by %(court)s on %(date)s")
        % {
            "offence": charge.offence,
            "outcome": charge.get_outcome_display().lower(),
            "court": charge.court,
            "date": date_format(decided_on),
        },
        data={"charge": charge.pk, "outcome": outcome},
    )
    return charge


def court_orders(case: DesignationCase):
    return Decision.objects.filter(
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        kind=COURT_ORDER_KIND,
    )


def _conviction(charge: Charge) -> str:
    return _("Conviction no. %(pk)s of %(date)s: %(offence)s") % {
        "pk": charge.pk,
        "date": date_format(charge.decided_on),
        "offence": charge.offence,
    }


@refusing()
@transaction.atomic
def court_order_record(
    *,
    charge: Charge,
    ordered_on: date,
    court: str,
    terms: str,
    actor,
    now: datetime | None = None,
) -> Decision:
    """The court ordered the dog confiscated and destroyed, the owner to pay the costs
    (DD-22): recorded with the order's date and court, once per conviction."""
    now = now or timezone.now()
    charge = (
        Charge.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=charge.pk)
    )
    case = charge.case
    jurisdiction = case.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    citation = court_order_citation(jurisdiction)
    if charge.outcome != ChargeOutcome.CONVICTED:
        raise Refused.because(
            _("Court order"),
            _("The court may order destruction on a conviction; this charge is %(outcome)s.")
            % {"outcome": charge.get_outcome_display().lower()},
            citation,
        )
    evidence = _conviction(charge)
    if court_orders(case).filter(evidence=evidence).exists():
        raise Refused.because(
            _("Court order"), _("The court's order on this conviction is recorded."), citation
        )
    _check_order(charge, court, terms, ordered_on, timezone.localdate(now))
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        kind=COURT_ORDER_KIND,
        outcome=DecisionOutcome.ORDERED,
        decided_by_name=court.strip(),
        decided_by_capacity=str(_("Court")),
        decided_on=ordered_on,
        reasons=terms.strip(),
        evidence=evidence,
        citation=citation,
        recorded_by=actor,
    )
    Event.record(
        "dangerous_dogs.charge.court_order",
        case,
        actor=actor,
        at=now,
        summary=_("%(court)s ordered on %(date)s: %(terms)s (%(section)s)")
        % {
            "court": decision.decided_by_name,
            "date": date_format(ordered_on),
            "terms": decision.reasons,
            "section": citation,
        },
        data={"charge": charge.pk, "decision": decision.pk},
    )
    return decision


def _check_order(charge: Charge, court: str, terms: str, ordered_on: date, today: date) -> None:
    citation = court_order_citation(charge.case.jurisdiction)
    errors = [
        Refused.because(label, message, citation, field=field).checks[0]
        for field, value, label, message in (
            ("court", court, _("Court"), _("Name the court.")),
            ("terms", terms, _("Order"), _("State what the court ordered.")),
        )
        if not value.strip()
    ]
    if errors:
        raise Refused(errors)
    refuse_if_future(ordered_on, _("Ordered on"), field="ordered_on", today=today)
    if ordered_on < charge.decided_on:
        raise Refused.because(
            _("Ordered on"),
            _("The order cannot come before the conviction (%(date)s).")
            % {"date": date_format(charge.decided_on)},
            citation,
            field="ordered_on",
        )
