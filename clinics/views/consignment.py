"""The city's tags at clinics, for those who keep the tag stock
(clerk and administrator, as ``licensing:tag_stock``): issue a block to a clinic, see
a block's tags, record tags returned or lost, and the clinic sales and balances by
month. Another city's block is a 404; a clinic's person gets 403."""

import csv

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from base.access import role_required
from base.csvcells import safe_cell
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK
from ordinance.refusals import Refused

from ..access import get_block, staff_clinics
from ..forms import BalanceForm, ConsignmentForm, ReconcileForm
from ..models import ConsignedTag, ConsignmentBlock, HoldingStatus
from ..services import consignment, statements
from ..services.statements import BALANCE_COLUMNS, number_ranges

ROLES = (CLERK, ADMINISTRATOR)
LIST_LIMIT = 200
BALANCE_LABELS = {
    "city": gettext_lazy("City"),
    "clinic": gettext_lazy("Clinic"),
    "month": gettext_lazy("Month"),
    "received": gettext_lazy("Tags received"),
    "sold": gettext_lazy("Licenses sold"),
    "returned": gettext_lazy("Tags returned"),
    "lost": gettext_lazy("Tags lost"),
    "on_hand": gettext_lazy("Unsold tags at month's end"),
    "collected": gettext_lazy("Fees collected"),
    "voided": gettext_lazy("Voided"),
    "due": gettext_lazy("Due to the city"),
}
MONEY = {"collected", "voided", "due"}


def _cities(request) -> list:
    return list(request.user.served_list)


@role_required(*ROLES)
@require_http_methods(["GET", "POST"])
def consignment_list(request):
    cities = _cities(request)
    form = ConsignmentForm(
        request.POST or None, clinics=staff_clinics(request).order_by("name"), cities=cities
    )
    if request.method == "POST" and form.is_valid():
        data = {k: form.cleaned_data[k] for k in ("year", "first_number", "last_number", "note")}
        try:
            block = consignment.consignment_issue(
                clinic=form.cleaned_data["clinic"],
                jurisdiction=form.chosen_city(),
                actor=request.user,
                **data,
            )
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            messages.success(request, _("%(block)s issued.") % {"block": block})
            return redirect("clinics:block_detail", block.pk)
    blocks = list(
        ConsignmentBlock.objects.for_user(request.user)
        .select_related("clinic", "jurisdiction")
        .annotate(
            held=Count("holdings", filter=Q(holdings__status=HoldingStatus.HELD)),
            sold=Count("holdings", filter=Q(holdings__status=HoldingStatus.SOLD)),
            returned=Count("holdings", filter=Q(holdings__status=HoldingStatus.RETURNED)),
            lost=Count("holdings", filter=Q(holdings__status=HoldingStatus.LOST)),
        )
        .order_by("-issued_at", "-pk")[:LIST_LIMIT]
    )
    today = timezone.localdate()
    return render(
        request,
        "clinics/consignments.html",
        {
            "form": form,
            "blocks": blocks,
            "many_cities": len(cities) > 1,
            "today": today,
            "limit": LIST_LIMIT,
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@role_required(*ROLES)
def block_detail(request, pk, form=None):
    block = get_block(request, pk)
    holdings = list(
        ConsignedTag.objects.filter(block=block)
        .select_related("tag", "sale__license", "sale__receipt", "reconciliation")
        .order_by("tag__number")
    )
    # The tags the clinic still holds: those a return or a loss may still move.
    held = [h.tag.number for h in holdings if h.may("return")]
    today = timezone.localdate()
    return render(
        request,
        "clinics/block_detail.html",
        {
            "consignment": block,
            "held": number_ranges(held),
            "held_count": len(held),
            "gone": [h for h in holdings if not h.may("return")],
            "reconciliations": block.reconciliations.select_related("recorded_by"),
            "form": form or ReconcileForm(),
            "today": today,
        },
        status=400 if form is not None else 200,
    )


@role_required(*ROLES)
@require_POST
def block_reconcile(request, pk):
    block = get_block(request, pk)
    form = ReconcileForm(request.POST)
    if not form.is_valid():
        return block_detail(request, pk, form=form)
    try:
        record = consignment.tags_reconcile(block=block, actor=request.user, **form.cleaned_data)
    except Refused as refused:
        apply_service_errors(form, refused)
        return block_detail(request, pk, form=form)
    messages.success(
        request,
        _("Tags %(numbers)s recorded: %(what)s.")
        % {"numbers": record.numbers, "what": record.get_kind_display().lower()},
    )
    return redirect("clinics:block_detail", block.pk)


@role_required(*ROLES)
def balances(request):
    """Clinic sales and balances by month, with its CSV."""
    today = timezone.localdate()
    form = BalanceForm(request.GET if "year" in request.GET else None, initial={"year": today.year})
    columns = BALANCE_COLUMNS if len(request.user.jurisdiction_ids) > 1 else BALANCE_COLUMNS[1:]
    if form.is_bound and not form.is_valid():
        return render(request, "clinics/balances.html", {"form": form, "rows": None}, status=400)
    year = form.cleaned_data["year"] if form.is_bound else today.year
    rows = statements.clinic_balances(
        jurisdiction_ids=request.user.jurisdiction_ids, year=year, through=today
    )
    if request.GET.get("format") == "csv":
        return balances_csv(rows, columns, year)
    return render(
        request,
        "clinics/balances.html",
        {
            "form": form,
            "year": year,
            "headers": [BALANCE_LABELS[c] for c in columns],
            "rows": [[_cell(c, row[c]) for c in columns] for row in rows],
            "query": f"year={year}",
        },
    )


def _cell(column, value):
    if column in MONEY:
        sign = "-" if value < 0 else ""
        return f"{sign}${abs(value):,.2f}"
    if column == "month":
        return date_format(value, "YEAR_MONTH_FORMAT")
    return value


def balances_csv(rows, columns, year) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="clinic-balances-{year}.csv"'
    writer = csv.writer(response)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([safe_cell(row[c]) for c in columns])
    return response
