"""The sterilization order of a dangerous dog (DD-17, C37; Minn. Stat. 347.52(d), MN-07).

Glencoe Subd. 15(G)(4) says the authority *may* require it and gives no period (Appendix
D G24); the statute *requires* it within 30 days of the designation, and the authority
seizes the dog and has it done at the owner's expense when the owner does not. The
governing values come from the rule layers (``dd_sterilization_days``,
``dd_sterilization_required``), each with its section and ``why``; the due date is
counted from the declaration and stored with its section when the order is made.
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import Designation, DesignationCase, SterilizationOrder
from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.calendar import due_date
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_layers

from .common import procedure_or_refuse

ORDER_KIND = "dd_sterilization_order"
ORDER_TEMPLATE = "dangerous_dogs/sterilization_order.html"
DAYS_KEY = "dd_sterilization_days"
REQUIRED_KEY = "dd_sterilization_required"


def sterilization_rules(jurisdiction, *, on: date) -> dict:
    """Both sides of "required" and of the period, for the page and the order (one query).

    A layer the city's profile lacks entirely is simply absent."""
    from ordinance.rules import RuleUnavailable

    try:
        layers = rule_layers(jurisdiction, [REQUIRED_KEY, DAYS_KEY], on=on)
    except RuleUnavailable:
        return {}
    return {"required": layers[REQUIRED_KEY], "days": layers[DAYS_KEY]}


def _dangerous_in_force(case: DesignationCase, citation: str) -> None:
    if not (case.in_force and case.declared_designation == Designation.DANGEROUS):
        raise Refused.because(
            _("Dangerous-dog case"),
            _(
                "Case %(n)s is %(status)s: a sterilization order is for a dangerous dog whose "
                "designation is in force."
            )
            % {"n": case.number, "status": case.get_status_display().lower()},
            citation,
        )


def order_context(case: DesignationCase, order: SterilizationOrder, rule, required) -> dict:
    animal, owner = case.animal, case.owner
    return {
        "case": {"number": case.number, "declared_on": case.declared_on},
        "animal": {
            "name": animal.name,
            "species": animal.get_species_display(),
            "breed": animal.breed,
            "color": animal.color,
            "sex": animal.get_sex_display(),
        },
        "owner": {"name": owner.name, "address": owner.address},
        "ordered_on": order.ordered_on,
        "due_on": order.due_on,
        "due_citation": order.due_citation,
        "period": rule.display(),
        "why": rule.why,
        "required_citation": required.citation if required else "",
        "ordinance_citation": rule_citation(case.jurisdiction, "DD-17"),
    }


@refusing()
@transaction.atomic
def sterilization_order(
    *, case: DesignationCase, ordered_on: date, actor, now: datetime | None = None
) -> SterilizationOrder:
    """Order the owner to have the dog sterilized; the order's PDF is issued (C37)."""
    from notices.services import document_issue

    now = now or timezone.now()
    today = timezone.localdate(now)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner")
        .get(pk=case.pk)
    )
    jurisdiction = case.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    procedure_or_refuse(jurisdiction, on=today)
    due_on, rule = due_date(jurisdiction, DAYS_KEY, case.declared_on or ordered_on)
    _dangerous_in_force(case, rule.citation)
    refuse_if_future(ordered_on, _("Ordered on"), field="ordered_on", today=today)
    if ordered_on < case.declared_on:
        raise Refused.because(
            _("Ordered on"),
            _("The order cannot come before the declaration (%(date)s).")
            % {"date": date_format(case.declared_on)},
            rule.citation,
            field="ordered_on",
        )
    pending = case.sterilization_orders.filter(done_on__isnull=True).first()
    if pending is not None:
        raise Refused.because(
            _("Sterilization"),
            _("An order of %(date)s is not yet done.") % {"date": date_format(pending.ordered_on)},
            rule.citation,
        )
    if case.sterilization_orders.exists():
        raise Refused.because(
            _("Sterilization"), _("The dog is already recorded as sterilized."), rule.citation
        )
    order = SterilizationOrder.objects.create(
        case=case,
        ordered_on=ordered_on,
        due_on=due_on,
        due_citation=rule.citation,
        recorded_by=actor,
    )
    required = sterilization_rules(jurisdiction, on=ordered_on).get("required")
    order.document = document_issue(
        kind=ORDER_KIND,
        template=ORDER_TEMPLATE,
        context=order_context(case, order, rule, required.governing if required else None),
        jurisdiction=jurisdiction,
        actor=actor,
        title=_("Order to sterilize a dangerous dog"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )
    order.save(update_fields=["document"])
    Event.record(
        "dangerous_dogs.sterilization.ordered",
        case,
        actor=actor,
        at=now,
        summary=_("Sterilization ordered on %(on)s, due by %(due)s (%(section)s)")
        % {"on": date_format(ordered_on), "due": date_format(due_on), "section": rule.citation},
        data={"order": order.pk, "due_on": str(due_on), "why": rule.why},
    )
    return order


@refusing()
@transaction.atomic
def sterilization_done(
    *,
    order: SterilizationOrder,
    done_on: date,
    veterinarian: str,
    certificate=None,
    by_authority: bool = False,
    actor,
    now: datetime | None = None,
) -> SterilizationOrder:
    """The dog was sterilized, by the owner's veterinarian or by the authority at the
    owner's expense; recorded once."""
    now = now or timezone.now()
    order = (
        SterilizationOrder.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=order.pk)
    )
    case = order.case
    refuse_unless_serves(actor, case.jurisdiction)
    if order.done_on:
        raise Refused.because(
            _("Sterilization"),
            _("Already recorded as done on %(date)s.") % {"date": date_format(order.done_on)},
            order.due_citation,
        )
    refuse_if_future(done_on, _("Sterilized on"), field="done_on", today=timezone.localdate(now))
    if case.declared_on and done_on < case.declared_on:
        raise Refused.because(
            _("Sterilized on"),
            _("The date is before the declaration (%(date)s).")
            % {"date": date_format(case.declared_on)},
            order.due_citation,
            field="done_on",
        )
    if not veterinarian.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian who sterilized the dog."),
            order.due_citation,
            field="veterinarian",
        )
    order.done_on = done_on
    order.veterinarian = veterinarian.strip()
    order.done_by_authority = bool(by_authority)
    fields = ["done_on", "veterinarian", "done_by_authority"]
    if certificate:
        order.certificate = certificate
        fields.append("certificate")
    order.save(update_fields=fields)
    summary = _("Sterilized on %(date)s by %(vet)s") % {
        "date": date_format(done_on),
        "vet": order.veterinarian,
    }
    if order.done_by_authority:
        summary += _(" (by the authority, at the owner's expense)")
    Event.record(
        "dangerous_dogs.sterilization.done",
        case,
        actor=actor,
        at=now,
        summary=summary,
        data={"order": order.pk, "by_authority": order.done_by_authority},
    )
    return order
