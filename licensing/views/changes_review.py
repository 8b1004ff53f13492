"""The clerk's queue of changes residents reported.

Clerks and administrators of the animal's city; another city's report is a 404 (staff
views scope to the user's cities, ``for_user``). The detail page shows what the
resident entered beside the record, and applies it with the counter's service for its
kind (``licensing.services.changes.change_apply``) or declines it with a reason.
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, CLERK
from licensing.forms.changes import APPLY_FORMS, DeclineForm
from licensing.models import ChangeStatus, ReportedChange, TagStatus
from licensing.services import changes as svc
from ordinance.refusals import Refused

COUNTER = (CLERK, ADMINISTRATOR)
PER_PAGE = 50
# Waiting for the clerk first, then waiting for a new owner, then the handled ones.
QUEUE_ORDER = Case(
    When(status=ChangeStatus.SUBMITTED, then=Value(0)),
    When(status=ChangeStatus.WAITING_NEW_OWNER, then=Value(1)),
    default=Value(2),
    output_field=IntegerField(),
)


def _changes(user):
    return ReportedChange.objects.for_user(user).select_related(
        "animal", "owner", "jurisdiction", "license"
    )


@role_required(*COUNTER)
def change_list(request):
    status = request.GET.get("status", "")
    changes = _changes(request.user).order_by(QUEUE_ORDER, "submitted_at", "pk")
    if status in ChangeStatus.values:
        changes = changes.filter(status=status)
    page = Paginator(changes, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "licensing/changes/list.html",
        {
            "page": page,
            "status": status,
            "statuses": ChangeStatus.choices,
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def change_detail(request, pk):
    change = get_in_jurisdiction(
        _changes(request.user).select_related("new_owner_user", "handled_by", "receipt"),
        request.user,
        pk=pk,
    )
    decision = request.POST.get("decision") if request.method == "POST" else None
    apply_form = APPLY_FORMS[change.kind](
        request.POST if decision == "apply" else None, prefix="apply"
    )
    decline_form = DeclineForm(request.POST if decision == "decline" else None, prefix="decline")
    if decision == "apply" and apply_form.is_valid():
        try:
            entry = svc.ClerkEntry(**apply_form.cleaned_data)
            applied = svc.change_apply(change=change, actor=request.user, entry=entry)
        except Refused as exc:  # e.g. the animal limit at the new address (KEN-01)
            apply_service_errors(apply_form, exc)
        else:
            if applied.receipt is not None:
                success_with_receipt(request, applied.message, applied.receipt)
            else:
                messages.success(request, applied.message)
            return redirect("changes:detail", pk=change.pk)
    if decision == "decline" and decline_form.is_valid():
        try:
            svc.change_decline(
                change=change, actor=request.user, reason=decline_form.cleaned_data["reason"]
            )
        except Refused as exc:
            apply_service_errors(decline_form, exc)
        else:
            messages.success(request, _("Report declined; the resident is told why."))
            return redirect("changes:detail", pk=change.pk)
    license = change.license
    return render(
        request,
        "licensing/changes/detail.html",
        {
            "change": change,
            "license": license,
            "tag": license.tags.filter(status=TagStatus.ISSUED).first() if license else None,
            "owner": change.owner,
            "may": {t.name: change.may(t.name) for t in ReportedChange.TRANSITIONS},
            "apply_form": apply_form,
            "decline_form": decline_form,
            "timing": svc.change_timing(change),
            "fee": svc.change_fee(change.jurisdiction, change.kind, on=timezone.localdate()),
        },
    )
