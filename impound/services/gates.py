"""Redemption gates: a court's authorization, and a judgement of humane destruction (IMP-08).

North Branch Sec. 6-75: a Sec. 6-73 dog found at large, or a dog impounded as a public
nuisance, is not redeemed unless a court having jurisdiction authorizes it (the gate the
intake opens; cleared here with the uploaded order, rules.md C16); a dog the council or
its agents judge should be destroyed for humane reasons may not be redeemed at all (a
gate no order clears). Glencoe's ordinance has no such rule: its judgement is refused.
A cleared gate is never reopened.
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import CaseGate, GateKind, ImpoundCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_in_force

HUMANE_DESTRUCTION = "humane_destruction"


def _open_case(case: ImpoundCase):
    if not case.is_open:
        raise Refused.because(
            _("Impound case"),
            _("Case %(n)s is closed (%(status)s).")
            % {"n": case.number, "status": case.get_status_display().lower()},
            rule_citation(case.jurisdiction, "IMP-08"),
        )


def _refuse_missing(label, citation: str, missing: dict) -> None:
    """Every blank field at once, each next to its field."""
    if missing:
        raise Refused(
            [Refused.because(label, msg, citation, field=f).checks[0] for f, msg in missing.items()]
        )


def _check_clearable(gate: CaseGate) -> None:
    """A court's order clears only an open court-authorization gate (IMP-08)."""
    if not gate.clearable:
        raise Refused.because(
            _("Gate"),
            _("%(label)s: no court authorization clears it; the dog may not be redeemed.")
            % {"label": gate.label},
            gate.citation,
        )
    if gate.kind != GateKind.COURT_AUTHORIZATION:
        raise Refused.because(
            _("Gate"),
            _("%(label)s is not cleared by a court's authorization.") % {"label": gate.label},
            gate.citation,
        )
    if not gate.is_open:
        raise Refused.because(
            _("Gate"),
            _("Already cleared on %(d)s: %(record)s")
            % {"d": timezone.localtime(gate.cleared_at).date(), "record": gate.clearing_record},
            gate.citation,
        )


@refusing()
@transaction.atomic
def gate_clear_court_authorization(
    *,
    gate: CaseGate,
    actor,
    court: str,
    order_number: str,
    order_date: date,
    document,
    terms: str = "",
    now: datetime | None = None,
) -> CaseGate:
    """Record the court's order authorizing redemption, with its scan (C16)."""
    now = now or timezone.now()
    gate = CaseGate.objects.select_for_update().select_related("case__jurisdiction").get(pk=gate.pk)
    case = gate.case
    refuse_unless_serves(actor, case.jurisdiction)
    _check_clearable(gate)
    _open_case(case)
    missing = {}
    if not court.strip():
        missing["court"] = _("Name the court that authorized redemption.")
    if not order_number.strip():
        missing["order_number"] = _("Enter the order's number.")
    if not document:
        missing["document"] = _("Upload the court's order.")
    _refuse_missing(_("Court authorization"), gate.citation, missing)
    refuse_if_future(order_date, _("Order date"), field="order_date", today=timezone.localdate(now))
    record = _("%(court)s, order %(n)s of %(d)s") % {
        "court": court.strip(),
        "n": order_number.strip(),
        "d": date_format(order_date),
    }
    if terms.strip():
        record = f"{record}: {terms.strip()}"
    gate.cleared_at, gate.cleared_by = now, actor
    gate.clearing_record = record[:300]
    gate.clearing_document = document
    gate.save(update_fields=["cleared_at", "cleared_by", "clearing_record", "clearing_document"])
    Event.record(
        "impound.gate.cleared",
        case,
        actor=actor,
        at=now,
        summary=_("%(label)s: %(record)s") % {"label": gate.label, "record": record},
        data={
            "gate": gate.pk,
            "kind": gate.kind,
            "court": court.strip(),
            "order_number": order_number.strip(),
            "order_date": order_date.isoformat(),
            "citation": gate.citation,
        },
    )
    return gate


@refusing()
@transaction.atomic
def case_humane_destruction_judgement(
    *,
    case: ImpoundCase,
    actor,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    now: datetime | None = None,
) -> Decision:
    """Record that the dog should be destroyed for humane reasons: never redeemable after."""
    now = now or timezone.now()
    case = ImpoundCase.objects.select_for_update().select_related("jurisdiction").get(pk=case.pk)
    jurisdiction = case.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    rule = rule_in_force(jurisdiction, "humane_destruction_provision", on=decided_on, optional=True)
    if rule is None:
        raise Refused.because(
            _("Humane destruction"),
            _("%(city)s's ordinance has no judgement of humane destruction that bars redemption.")
            % {"city": jurisdiction.short_name},
        )
    _open_case(case)
    if case.gates.filter(kind=GateKind.HUMANE_DESTRUCTION).exists():
        raise Refused.because(
            _("Humane destruction"),
            _("A judgement of humane destruction is already recorded."),
            rule.citation,
        )
    missing = {}
    if not decided_by_name.strip():
        missing["decided_by_name"] = _("Name who judged.")
    if not capacity.strip():
        missing["capacity"] = _("Say in which capacity (the council or its agent).")
    if not reasons.strip():
        missing["reasons"] = _("Give the humane reasons.")
    _refuse_missing(_("Humane destruction"), rule.citation, missing)
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=timezone.localdate(now))
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject=case,
        kind=HUMANE_DESTRUCTION,
        outcome=DecisionOutcome.ORDERED,
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=capacity.strip(),
        decided_on=decided_on,
        reasons=reasons.strip(),
        citation=rule.citation,
        recorded_by=actor,
    )
    CaseGate.objects.create(
        case=case,
        kind=GateKind.HUMANE_DESTRUCTION,
        label=str(rule.value),
        citation=rule.citation,
        clearable=False,
        opened_at=now,
        opened_by=actor,
    )
    Event.record(
        "impound.case.humane_destruction_judged",
        case,
        actor=actor,
        at=now,
        summary=_("Judged to be destroyed for humane reasons by %(who)s (%(c)s); not redeemable")
        % {"who": decision.decided_by_name, "c": rule.citation},
        data={"decision": decision.pk, "citation": rule.citation},
    )
    return decision
