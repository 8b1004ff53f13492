"""The owner's appeal of the Review Panel's ruling to the City Council, filed with the City
Clerk, and then to the Court of Appeals (Glencoe 701 Subd. 15(H); rule DD-20; C31).

Only a panel's declaration is appealable: a declaration by default has no Council appeal
(15(H) covers decisions of the Review Panel). The deadline is the date stored from the
ruling (``case.appeal_deadline``); a late filing is recorded, marked late and put before
a person. The Council is not an account (Appendix G 6): the Clerk's office records its
decision, a ``notices.Decision`` reviewing the panel's.

Whether a pending appeal stays the compliance clock is a blank of the ordinance
(``appeal_stays_compliance``, Appendix D G22): a person decides; ``stay_statement`` says so.
"""

from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.roles import ADMINISTRATOR, CLERK
from dangerous_dogs.models import (
    Appeal,
    DeclaredBy,
    DesignationCase,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleNotSet, rule_citation, rule_in_force

from .common import gathered, locked
from .hearing import PANEL_FINDING

COUNCIL_APPEAL = "dd_council_appeal"
UPHELD, REVERSED = "upheld", "reversed"
COUNCIL_OUTCOMES = {UPHELD: DecisionOutcome.UPHELD, REVERSED: DecisionOutcome.NOT_UPHELD}
CLERK_ROLES = (CLERK, ADMINISTRATOR)


def appeal_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-20")


def _check_clerk(actor):
    if not actor.has_role(*CLERK_ROLES):
        raise Refused.because(
            _("Appeal"), _("An appeal is filed with the City Clerk: the Clerk's office records it.")
        )


def stay_statement(jurisdiction, *, on: date) -> dict:
    """Whether a pending appeal stays the compliance clock, as the page says it."""
    try:
        rule = rule_in_force(jurisdiction, "appeal_stays_compliance", on=on, optional=True)
    except RuleNotSet as exc:
        return {
            "text": _("The ordinance does not say; a person decides."),
            "citation": exc.citation or appeal_citation(jurisdiction),
            "decided": False,
        }
    if rule is None:
        return {"text": "", "citation": "", "decided": False}
    text = (
        _("A pending appeal stays the compliance clock.")
        if rule.value
        else _("A pending appeal does not stay the compliance clock.")
    )
    return {"text": text, "citation": rule.citation, "decided": True}


@refusing()
@transaction.atomic
def appeal_file(
    *, case: DesignationCase, filed_on: date, grounds: str, actor, now: datetime | None = None
) -> Appeal:
    """Record an appeal filed with the City Clerk (C31): late ones too, marked and flagged."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = locked(case)
    jurisdiction = case.jurisdiction
    citation = appeal_citation(jurisdiction)
    refuse_unless_serves(actor, jurisdiction)
    _check_clerk(actor)
    _check_appealable(case, citation)
    errors = _filing_errors(case, filed_on, grounds, today, citation)
    if errors:
        raise Refused(errors)
    late = filed_on > case.appeal_deadline
    appeal = Appeal.objects.create(
        case=case,
        filed_on=filed_on,
        deadline=case.appeal_deadline,
        late=late,
        grounds=grounds.strip(),
        recorded_by=actor,
    )
    Event.record(
        "dangerous_dogs.appeal.filed",
        case,
        actor=actor,
        at=now,
        summary=_(
            "Appeal to the City Council filed with the City Clerk on %(date)s%(late)s (%(c)s)"
        )
        % {
            "date": date_format(filed_on),
            "late": (_(", after the deadline of %(d)s") % {"d": date_format(case.appeal_deadline)})
            if late
            else "",
            "c": case.appeal_citation or citation,
        },
        data={"appeal": appeal.pk, "late": late, "deadline": str(case.appeal_deadline)},
    )
    if late:
        case.flag(
            _("Appeal filed late (%(filed)s; due by %(due)s): decide whether the Council hears it.")
            % {"filed": date_format(filed_on), "due": date_format(case.appeal_deadline)},
            case.appeal_citation or citation,
            on=today,
            actor=actor,
            at=now,
        )
    return appeal


def _check_appealable(case: DesignationCase, citation: str) -> None:
    """Only a Review Panel's ruling in force is appealed, once."""
    if case.declared_by == DeclaredBy.DEFAULT:
        raise Refused.because(
            _("Appeal"),
            _(
                "The dog was declared by default (not contested): the ordinance gives an appeal "
                "to the City Council only from a decision of the Review Panel."
            ),
            citation,
        )
    # An appeal asks the Council to reverse the panel: a ruling the table lets it reverse.
    if case.declared_by != DeclaredBy.PANEL or not case.may("reverse"):
        raise Refused.because(
            _("Appeal"),
            _("Case %(n)s is %(status)s: there is no Review Panel ruling in force to appeal.")
            % {"n": case.number, "status": case.get_status_display().lower()},
            citation,
        )
    if case.appeals.exists():
        raise Refused.because(
            _("Appeal"), _("An appeal of this ruling is recorded already."), citation
        )


def _filing_errors(case, filed_on: date, grounds: str, today: date, citation: str) -> list:
    errors = []
    if not (grounds or "").strip():
        message = str(_("Enter the grounds of the appeal."))
        errors.append(Check(str(_("Grounds")), "fail", message, citation, "grounds"))
    with gathered(errors):
        refuse_if_future(filed_on, _("Filed on"), field="filed_on", today=today)
        if case.ruling_on and filed_on < case.ruling_on:
            raise Refused.because(
                _("Filed on"),
                _("The panel ruled later (%(date)s).") % {"date": date_format(case.ruling_on)},
                citation,
                field="filed_on",
            )
    return errors


def panel_decision(case) -> Decision | None:
    return (
        Decision.objects.filter(
            subject_type=ContentType.objects.get_for_model(DesignationCase),
            subject_id=case.pk,
            kind=PANEL_FINDING,
        )
        .order_by("pk")
        .last()
    )


@refusing()
@transaction.atomic
def appeal_decide(
    *,
    appeal: Appeal,
    outcome: str,
    decided_on: date,
    reasons: str,
    actor,
    decided_by_name: str = "City Council",
    now: datetime | None = None,
) -> Decision:
    """Record the City Council's decision on the appeal; a reversal dismisses the case."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    appeal = (
        Appeal.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=appeal.pk)
    )
    case = appeal.case
    jurisdiction = case.jurisdiction
    citation = appeal_citation(jurisdiction)
    refuse_unless_serves(actor, jurisdiction)
    _check_clerk(actor)
    if not appeal.pending:
        raise Refused.because(
            _("Appeal"), _("The Council's decision is recorded already."), citation
        )
    texts = {"decided_by_name": decided_by_name, "reasons": reasons}
    errors = _decision_errors(appeal, outcome, texts, decided_on, today)
    if errors:
        raise Refused(errors)
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject=case,
        kind=COUNCIL_APPEAL,
        outcome=COUNCIL_OUTCOMES[outcome],
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=_("City Council"),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence=appeal.grounds,
        citation=citation,
        reviews=panel_decision(case),
        recorded_by=actor,
    )
    appeal.decision = decision
    appeal.save(update_fields=["decision"])
    _apply_decision(case, appeal, outcome, actor=actor, now=now)
    return decision


def _decision_errors(appeal, outcome: str, texts: dict, decided_on: date, today: date) -> list:
    """Every problem of the Council's decision at once, each next to its field."""
    citation = appeal_citation(appeal.case.jurisdiction)
    errors = []
    if outcome not in COUNCIL_OUTCOMES:
        message = str(_("The Council upholds or reverses the panel."))
        errors.append(Check(str(_("Outcome")), "fail", message, citation, "outcome"))
    for field, message in (
        ("decided_by_name", _("Name who decided (the City Council).")),
        ("reasons", _("Give the Council's reasons.")),
    ):
        if not (texts[field] or "").strip():
            errors.append(Check(str(_("Council decision")), "fail", str(message), citation, field))
    with gathered(errors):
        refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
        if decided_on < appeal.filed_on:
            raise Refused.because(
                _("Decided on"),
                _("The appeal was filed later (%(date)s).")
                % {"date": date_format(appeal.filed_on)},
                field="decided_on",
            )
    return errors


def _apply_decision(case, appeal: Appeal, outcome: str, *, actor, now) -> None:
    """Reversed, the case is dismissed; upheld, the designation stays in force."""
    decision = appeal.decision
    words = {"date": date_format(decision.decided_on), "c": decision.citation}
    data = {"appeal": appeal.pk, "decision": decision.pk, "outcome": outcome}
    if outcome != REVERSED:
        Event.record(
            "dangerous_dogs.appeal.upheld",
            case,
            actor=actor,
            at=now,
            summary=_("The City Council upheld the Review Panel on %(date)s (%(c)s)") % words,
            data=data,
        )
        return
    case.closed_on = decision.decided_on
    case.closing_note = _("Reversed by the City Council on appeal.")
    case.apply(
        "reverse",
        actor=actor,
        at=now,
        summary=_("The City Council reversed the Review Panel on %(date)s (%(c)s)") % words,
        citation=decision.citation,
        data=data,
        fields=["closed_on", "closing_note"],
    )


@refusing()
@transaction.atomic
def court_of_appeals(*, appeal: Appeal, on: date, actor, now: datetime | None = None) -> Appeal:
    """The owner appealed the Council's decision to the Minnesota Court of Appeals."""
    now = now or timezone.now()
    appeal = (
        Appeal.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction", "decision")
        .get(pk=appeal.pk)
    )
    case = appeal.case
    citation = appeal_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    _check_clerk(actor)
    if appeal.pending:
        raise Refused.because(
            _("Court of Appeals"), _("The City Council has not decided the appeal yet."), citation
        )
    if appeal.court_of_appeals_on is not None:
        raise Refused.because(
            _("Court of Appeals"),
            _("Recorded already (%(date)s).") % {"date": date_format(appeal.court_of_appeals_on)},
            citation,
        )
    refuse_if_future(on, _("Appealed on"), field="on", today=timezone.localdate(now))
    if on < appeal.decision.decided_on:
        raise Refused.because(
            _("Appealed on"),
            _("The Council decided later (%(date)s).")
            % {"date": date_format(appeal.decision.decided_on)},
            field="on",
        )
    appeal.court_of_appeals_on = on
    appeal.save(update_fields=["court_of_appeals_on"])
    Event.record(
        "dangerous_dogs.appeal.court_of_appeals",
        case,
        actor=actor,
        at=now,
        summary=_("Appealed to the Minnesota Court of Appeals on %(date)s (%(c)s)")
        % {"date": on, "c": citation},
        data={"appeal": appeal.pk},
    )
    return appeal
