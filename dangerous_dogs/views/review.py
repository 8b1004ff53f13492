"""Part D on the case page: review of the designation, charges and repeat offences, summary
destruction (DD-22, DD-24, DD-25, DD-28; C35, C38; Appendix D G19, G26, G27).

The same thin shape as ``views/owner.py`` (its helpers): role (403), city (404), form,
one service call, a refusal next to its field.
"""

from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from dangerous_dogs import forms_owner as f
from dangerous_dogs.models import (
    Charge,
    Designation,
    ReviewRequest,
    SummaryDestruction,
)
from dangerous_dogs.services import charges, destruction, review
from licensing.models import Animal
from ordinance.calendar import add_months
from ordinance.rules import rule_citation

from .owner import ACTORS, case_for, form_page, may_act, part_d, scoped


def _opens_on(case, reviews, layers):
    """The first date a (next) review may be asked for, from the rules read once."""
    first = layers.get("dd_review_first_after_months")
    if first is None or case.declared_on is None:
        return None, ""
    opens, citation = add_months(case.declared_on, first.governing.value), first.governing.citation
    frequency = layers.get("dd_review_frequency")
    if reviews and frequency is not None:
        again = add_months(reviews[-1].requested_on, frequency.governing.value)
        if again > opens:
            opens, citation = again, frequency.governing.citation
    return opens, citation


# --- Review (C35) -----------------------------------------------------------------------


def review_section(request, *, case):
    if case.declared_designation != Designation.DANGEROUS:
        return None
    info = part_d(case)
    reviews = info["reviews"]
    opens_on, opens_citation = _opens_on(case, reviews, info["layers"])
    pending = any(r.decision_id is None for r in reviews)
    return "dangerous_dogs/review/_review.html", {
        "case": case,
        "reviews": reviews,
        "opens_on": opens_on,
        "opens_citation": opens_citation,
        "can_request": may_act(request, case) and case.in_force and not pending,
        "can_act": may_act(request, case),
    }


@role_required(*ACTORS)
def review_new(request, pk):
    case = case_for(request, pk)
    form = (
        f.ReviewRequestForm(request.POST, request.FILES)
        if request.method == "POST"
        else f.ReviewRequestForm(initial={"requested_on": timezone.localdate()})
    )

    def run(data):
        review.review_request(case=case, actor=request.user, **data)

    return form_page(
        request,
        case=case,
        form=form,
        title=_("Record a request to review the designation"),
        run=run,
    )


@role_required(*ACTORS)
def review_decide(request, pk):
    item = scoped(ReviewRequest.objects.select_related("case__jurisdiction"), request.user, pk)
    form = (
        f.ReviewDecideForm(request.POST)
        if request.method == "POST"
        else f.ReviewDecideForm(initial={"decided_on": timezone.localdate()})
    )

    def run(data):
        review.review_decide(request=item, actor=request.user, **data)

    return form_page(
        request,
        case=item.case,
        form=form,
        title=_("Decide the review of the designation"),
        run=run,
        intro=_("Evidence: %(evidence)s") % {"evidence": item.evidence},
    )


# --- Charges (DD-22, DD-24) -------------------------------------------------------------


def charges_section(request, *, case):
    info = part_d(case)
    rows, orders = info["charges"], info["court_orders"]
    if not (rows or (case.declared_on and case.is_open)):
        return None
    return "dangerous_dogs/review/_charges.html", {
        "case": case,
        "charges": rows,
        "court_orders": orders,
        "court_order_citation": charges.court_order_citation(case.jurisdiction),
        "repeat_citation": rule_citation(case.jurisdiction, "DD-24"),
        "can_act": may_act(request, case),
        "can_charge": may_act(request, case) and case.is_open,
    }


@role_required(*ACTORS)
def charge_new(request, pk):
    case = case_for(request, pk)
    form = (
        f.ChargeForm(request.POST)
        if request.method == "POST"
        else f.ChargeForm(initial={"charged_on": timezone.localdate()})
    )

    def run(data):
        charges.charge_record(case=case, actor=request.user, **data)

    return form_page(request, case=case, form=form, title=_("Record a charge"), run=run)


def _charge(request, pk):
    return scoped(Charge.objects.select_related("case__jurisdiction"), request.user, pk)


@role_required(*ACTORS)
def charge_decide(request, pk):
    charge = _charge(request, pk)
    form = (
        f.ChargeDecideForm(request.POST)
        if request.method == "POST"
        else f.ChargeDecideForm(initial={"decided_on": timezone.localdate()})
    )

    def run(data):
        charges.charge_decide(charge=charge, actor=request.user, **data)

    return form_page(
        request,
        case=charge.case,
        form=form,
        title=_("Record the court's outcome"),
        run=run,
        intro=str(charge),
    )


@role_required(*ACTORS)
def court_order(request, pk):
    charge = _charge(request, pk)
    form = (
        f.CourtOrderForm(request.POST)
        if request.method == "POST"
        else f.CourtOrderForm(initial={"court": charge.court})
    )

    def run(data):
        charges.court_order_record(charge=charge, actor=request.user, **data)

    return form_page(
        request,
        case=charge.case,
        form=form,
        title=_("Record the court's order"),
        run=run,
        intro=_(
            "On a conviction the court may order the dog confiscated and destroyed and the "
            "owner to pay the costs (%(section)s)."
        )
        % {"section": charges.court_order_citation(charge.case.jurisdiction)},
    )


# --- Summary destruction (C38) ----------------------------------------------------------


def destruction_section(request, *, case):
    info = part_d(case)
    records = info["destructions"]
    can = may_act(request, case) and case.is_open
    if not (records or can):
        return None
    return "dangerous_dogs/review/_destruction.html", {
        "case": case,
        "records": records,
        "citation": destruction.destruction_citation(case.jurisdiction),
        "can_record": can,
        "can_act": may_act(request, case),
    }


def _destruction_page(request, *, animal, case):
    form = (
        f.SummaryDestructionForm(request.POST)
        if request.method == "POST"
        else f.SummaryDestructionForm()
    )

    def run(data):
        destruction.summary_destruction_record(
            animal=animal,
            case=case,
            hearing=destruction.DestructionHearing(**data),
            actor=request.user,
        )

    return form_page(
        request,
        case=case,
        form=form,
        done_url=None if case else animal.get_absolute_url(),
        title=_("Record a summary destruction"),
        run=run,
        intro=_(
            "Only after the owner has had the opportunity for a hearing before an impartial "
            "decision maker (%(section)s)."
        )
        % {"section": destruction.destruction_citation(animal.jurisdiction)},
        extra={"animal": animal},
    )


@role_required(*ACTORS)
def destruction_for_case(request, pk):
    case = case_for(request, pk)
    return _destruction_page(request, animal=case.animal, case=case)


@role_required(*ACTORS)
def destruction_for_animal(request, pk):
    animal = get_in_jurisdiction(Animal.objects.select_related("jurisdiction"), request.user, pk=pk)
    return _destruction_page(request, animal=animal, case=None)


@role_required(*ACTORS)
def destroyed(request, pk):
    record = get_in_jurisdiction(
        SummaryDestruction.objects.select_related("jurisdiction", "animal", "case"),
        request.user,
        pk=pk,
    )
    form = (
        f.DestroyedForm(request.POST)
        if request.method == "POST"
        else f.DestroyedForm(initial={"destroyed_on": timezone.localdate()})
    )

    def run(data):
        destruction.summary_destruction_done(record=record, actor=request.user, **data)

    return form_page(
        request,
        case=record.case,
        form=form,
        done_url=None if record.case else record.animal.get_absolute_url(),
        title=_("Record the destruction"),
        run=run,
        intro=str(record),
        extra={"animal": record.animal},
    )


urlpatterns = [
    path("cases/<int:pk>/review/new/", review_new, name="review_request_new"),
    path("reviews/<int:pk>/decide/", review_decide, name="review_decide"),
    path("cases/<int:pk>/charges/new/", charge_new, name="review_charge_new"),
    path("charges/<int:pk>/decide/", charge_decide, name="review_charge_decide"),
    path("charges/<int:pk>/court-order/", court_order, name="review_court_order"),
    path(
        "cases/<int:pk>/summary-destruction/",
        destruction_for_case,
        name="review_destruction_case",
    ),
    path(
        "animals/<int:pk>/summary-destruction/",
        destruction_for_animal,
        name="review_destruction_animal",
    ),
    path("summary-destruction/<int:pk>/destroyed/", destroyed, name="review_destroyed"),
]
SECTIONS = [
    ("review", review_section, 78),
    ("charges", charges_section, 82),
    ("summary_destruction", destruction_section, 86),
]
