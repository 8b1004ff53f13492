"""The resident reports a change about their own animal and follows it.

Every lookup filters on ``Owner.user == request.user``: another resident's animal or
report is a 404; ``role_required(RESIDENT)`` comes first, so staff get 403. The new
owner of a transfer opens a signed link (e-mailed to them) while signed in.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import RESIDENT
from licensing.forms.changes import REPORT_FORMS
from licensing.models import Animal, ChangeKind, ReportedChange
from licensing.services import changes as svc
from ordinance.refusals import Refused


def _own_animal(user, pk) -> Animal:
    animal = (
        Animal.objects.filter(pk=pk, owner__user=user)
        .select_related("owner", "jurisdiction")
        .first()
    )
    if animal is None:
        raise Http404
    return animal


@role_required(RESIDENT)
@require_http_methods(["GET", "POST"])
def change_report(request, pk, kind):
    if kind not in ChangeKind.values:
        raise Http404
    animal = _own_animal(request.user, pk)
    today = timezone.localdate()
    form = REPORT_FORMS[kind](request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            change = svc.change_report(
                animal=animal,
                kind=kind,
                happened_on=form.cleaned_data["happened_on"],
                details=form.details(),
                user=request.user,
            )
        except Refused as exc:  # each check next to its field; what was typed is kept
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Thank you: your report was sent."))
            return redirect("licensing:change_detail", pk=change.pk)
    return render(
        request,
        "licensing/portal/change_report.html",
        {
            "animal": animal,
            "kind": ChangeKind(kind),
            "form": form,
            "fee": svc.change_fee(animal.jurisdiction, kind, on=today),
            "notice": _address_notice(animal, kind, today),
        },
    )


def _address_notice(animal, kind, today):
    """LIC-11: how many days the ordinance gives to report a move, with its section."""
    if kind != ChangeKind.ADDRESS:
        return None
    try:
        timing = svc.address_change_timing(animal.jurisdiction, moved_on=today, reported_on=today)
    except svc.RuleUnavailable:
        return None
    return {"days": (timing.due_on - today).days, "citation": timing.citation}


@role_required(RESIDENT)
def change_detail(request, pk):
    change = (
        ReportedChange.objects.filter(pk=pk, owner__user=request.user)
        .select_related("animal", "jurisdiction", "license", "receipt")
        .first()
    )
    if change is None:
        raise Http404
    return render(
        request,
        "licensing/portal/change_detail.html",
        {
            "change": change,
            # The resident's other reports about this animal (the animal page shows only
            # the latest).
            "others": ReportedChange.objects.filter(
                animal=change.animal_id, owner__user=request.user
            )
            .exclude(pk=change.pk)
            .order_by("-submitted_at", "-pk"),
            "timing": svc.change_timing(change),
            "fee": svc.change_fee(
                change.jurisdiction, change.kind, on=timezone.localdate(change.submitted_at)
            ),
        },
    )


@role_required(RESIDENT)
@require_http_methods(["GET", "POST"])
def transfer_accept(request, token):
    change = svc.change_for_token(token)
    if change is None:
        raise Http404
    own = request.user.pk in (change.submitted_by_id, change.owner.user_id)
    if request.method == "POST":
        try:
            svc.change_accept_transfer(change=change, user=request.user)
        except Refused as exc:  # the reporting resident, or no longer waiting
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(
                request,
                _("Thank you: the clerk will finish the transfer and tell you the fee to pay."),
            )
        return redirect("licensing:transfer_accept", token=token)
    return render(
        request,
        "licensing/portal/transfer_accept.html",
        {
            "change": change,
            "own": own,
            "waiting": change.may("accept_transfer"),
            "accepted_by_you": change.new_owner_user_id == request.user.pk,
            "fee": svc.change_fee(change.jurisdiction, change.kind, on=timezone.localdate()),
        },
    )
