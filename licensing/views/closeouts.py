"""The clerk's daily close-out: the day's receipts with totals by
method, "Close the day" with a confirmation step, the closed days and their deposit
slips. Whoever takes money closes their own day: clerks at the counter, and officers
who take release and registration fees at the pound; each sees their own close-outs,
an administrator every close-out of their cities.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from licensing.forms.counter import CloseOutDayForm
from licensing.services import closeouts as svc
from licensing.services.documents import documents_for
from ordinance.refusals import Refused

# Every staff role takes money somewhere (the counter, the pound): residents never.
TAKES_MONEY = (CLERK, OFFICER, ADMINISTRATOR)
LIST_LIMIT = 100  # a screen limit on the close-outs listed, not an ordinance value


def _day_form(request, data):
    """The day and city asked for; today and the first city served when not given."""
    served = request.user.served_list
    defaults = {"day": timezone.localdate(), "jurisdiction": served[0].pk if served else ""}
    return CloseOutDayForm({**defaults, **data.dict()}, user=request.user)


def _chosen(form):
    return form.chosen_jurisdiction(), form.cleaned_data["day"]


@role_required(*TAKES_MONEY)
def closeout_list(request):
    user = request.user
    return render(
        request,
        "licensing/closeouts/list.html",
        {
            "open_days": svc.closeout_open_days(clerk=user, jurisdiction_ids=user.jurisdiction_ids),
            "closeouts": svc.closeouts_for(user)[:LIST_LIMIT],
            "every_clerk": user.has_role(ADMINISTRATOR),
            "many_cities": len(user.jurisdiction_ids) > 1,
        },
    )


@role_required(*TAKES_MONEY)
def closeout_day(request):
    form = _day_form(request, request.GET)
    summary = city = day = None
    if form.is_valid():
        city, day = _chosen(form)
        summary = svc.closeout_open_summary(clerk=request.user, jurisdiction=city, day=day)
    return render(
        request,
        "licensing/closeouts/day.html",
        {
            "form": form,
            "summary": summary,
            "city": city,
            "day": day,
            "closed": svc.closeouts_for(request.user).filter(
                clerk=request.user, jurisdiction=city, business_day=day
            )
            if summary is not None
            else [],
            "many_cities": len(request.user.jurisdiction_ids) > 1,
        },
        status=200 if form.is_valid() else 400,
    )


@role_required(*TAKES_MONEY)
@require_http_methods(["GET", "POST"])
def closeout_close(request):
    """GET: the totals to confirm; POST: close the day."""
    form = _day_form(request, request.POST if request.method == "POST" else request.GET)
    summary = None
    if form.is_valid():
        city, day = _chosen(form)
        if request.method == "POST":
            try:
                closeout = svc.closeout_close(clerk=request.user, jurisdiction=city, day=day)
            except Refused as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("The day is closed: %(n)s receipts, $%(total)s. Print the deposit slip.")
                    % {"n": closeout.receipt_count, "total": closeout.total},
                )
                return redirect("licensing:closeout_detail", pk=closeout.pk)
        summary = svc.closeout_open_summary(clerk=request.user, jurisdiction=city, day=day)
    return render(
        request,
        "licensing/closeouts/confirm.html",
        {"form": form, "summary": summary, "many_cities": len(request.user.jurisdiction_ids) > 1},
        status=200 if form.is_valid() and not form.errors else 400,
    )


@role_required(*TAKES_MONEY)
def closeout_detail(request, pk):
    closeout = get_in_jurisdiction(svc.closeouts_for(request.user), request.user, pk=pk)
    return render(
        request,
        "licensing/closeouts/detail.html",
        {
            "closeout": closeout,
            "summary": svc.closeout_summary(closeout),
            "docs": documents_for(closeout),
            "many_cities": len(request.user.jurisdiction_ids) > 1,
        },
    )
