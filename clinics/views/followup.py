"""Vaccinated but unlicensed: the report by city (and its CSV), the
button that runs the follow-up (POST), each batch's letters as a PDF, and the results
report (and its CSV). Clerks and administrators, each seeing the cities they serve: a
batch of another city is a 404, an officer or a clinic gets 403."""

import csv

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from base.access import role_required
from base.csvcells import safe_cell
from base.roles import ADMINISTRATOR, CLERK
from licensing.forms.reports import DateRangeForm
from licensing.services.standing import Standing
from notices.services import document_render
from ordinance.calendar import add_months

from ..forms import FollowUpRunForm
from ..models import FollowUpBatch
from ..services import followup

ROLES = (CLERK, ADMINISTRATOR)
# The screen shows this many animals and batches; the CSV has every animal.
LIST_LIMIT = 200
BATCH_LIMIT = 10
# The results report's default range: this many months back (a screen default).
RESULTS_MONTHS = 12

ANIMAL_COLUMNS = [
    ("city", gettext_lazy("City")),
    ("animal", gettext_lazy("Animal")),
    ("species", gettext_lazy("Species")),
    ("standing", gettext_lazy("License")),
    ("owner", gettext_lazy("Owner")),
    ("address", gettext_lazy("Mailing address")),
    ("email", gettext_lazy("E-mail")),
    ("vaccinated_on", gettext_lazy("Vaccinated on")),
    ("clinic", gettext_lazy("Clinic")),
    ("letter_on", gettext_lazy("Letter sent")),
    ("email_on", gettext_lazy("E-mail sent")),
]
RESULT_COLUMNS = [
    ("city", gettext_lazy("City")),
    ("month", gettext_lazy("Month sent")),
    ("letters", gettext_lazy("Letters")),
    ("emails", gettext_lazy("E-mails")),
    ("animals", gettext_lazy("Animals written to")),
    ("licensed", gettext_lazy("Licensed within the measure period")),
    ("waiting", gettext_lazy("Still within the period, unlicensed")),
    ("share", gettext_lazy("Share licensed (%)")),
]


def _animal_row(animal) -> dict:
    standing = Standing.EXPIRED if animal.license_lapsed else Standing.REQUIRED
    return {
        "pk": animal.pk,
        "city": animal.jurisdiction.short_name,
        "animal": animal.name,
        "species": animal.get_species_display(),
        "standing": str(standing.label),
        "owner": animal.owner.name,
        "address": ", ".join(followup.owner_address(animal.owner)),
        "email": animal.owner.email,
        "vaccinated_on": animal.certificate_on,
        "clinic": animal.certificate_clinic or "",
        "letter_on": animal.letter_on,
        "email_on": animal.email_on,
    }


def _animals(plans, on):
    return (
        followup.unlicensed_animals(plans, on=on)
        .select_related("owner", "jurisdiction")
        .order_by("jurisdiction__name", "owner__last_name", "owner__first_name", "name", "pk")
    )


def _city_rows(plans, counts) -> list[dict]:
    rows = []
    for plan in plans:
        species = [
            {**row, "label": _species_label(kind)}
            for (city_pk, kind), row in counts.items()
            if city_pk == plan.city.pk
        ]
        rows.append({"plan": plan, "species": species})
    return rows


def _species_label(kind: str) -> str:
    from licensing.models import Species

    return str(Species(kind).label) if kind in Species.values else kind


@role_required(*ROLES)
def unlicensed(request, run_form=None):
    cities, on = request.user.served_list, timezone.localdate()
    plans = followup.city_followups(cities, on=on)
    if request.GET.get("format") == "csv" and run_form is None:
        rows = (_animal_row(a) for a in _animals(plans, on).iterator(chunk_size=500))
        return _csv("vaccinated-unlicensed.csv", ANIMAL_COLUMNS, rows)
    animals = [_animal_row(a) for a in _animals(plans, on)[: LIST_LIMIT + 1]]
    batches = (
        FollowUpBatch.objects.for_user(request.user)
        .select_related("jurisdiction", "run_by")
        .defer("snapshot")[:BATCH_LIMIT]
    )
    return render(
        request,
        "clinics/unlicensed.html",
        {
            "cities": _city_rows(plans, followup.followup_counts(plans, on=on)),
            "animals": animals[:LIST_LIMIT],
            "truncated": len(animals) > LIST_LIMIT,
            "limit": LIST_LIMIT,
            "columns": ANIMAL_COLUMNS,
            "batches": batches,
            "run_form": run_form or FollowUpRunForm(cities=cities),
            "show_city": len(cities) > 1,
            "today": on,
        },
        status=400 if run_form is not None else 200,
    )


@role_required(*ROLES)
@require_POST
def unlicensed_run(request):
    form = FollowUpRunForm(request.POST, cities=request.user.served_list)
    if not form.is_valid():
        return unlicensed(request, run_form=form)
    for run in followup.followup_run(actor=request.user, cities=form.chosen(), now=timezone.now()):
        _report_run(request, run)
    return redirect("clinics:unlicensed")


def _report_run(request, run) -> None:
    city = run.city.short_name
    if run.refused:
        messages.info(request, f"{city}: {run.refused}")
    elif run.batch is None:
        messages.info(
            request,
            _(
                "%(city)s: nothing new to send: every animal on the list has had its letter "
                "and e-mail for this term."
            )
            % {"city": city},
        )
    else:
        messages.success(
            request,
            _(
                "%(city)s: %(letters)s letters and %(emails)s e-mails recorded; print the "
                "letters from the batch below."
            )
            % {"city": city, "letters": run.batch.letter_count, "emails": run.batch.email_count},
        )


@role_required(*ROLES)
def unlicensed_batch_pdf(request, pk):
    """The letters of one batch, printed from its frozen snapshot (the same every time)."""
    batch = FollowUpBatch.objects.for_user(request.user).filter(pk=pk).first()
    if batch is None:
        raise Http404
    pdf = document_render(template=followup.LETTERS_TEMPLATE, snapshot=batch.snapshot)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="unlicensed-letters-{batch.pk}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*ROLES)
def unlicensed_results(request):
    today = timezone.localdate()
    default = {"start": add_months(today, -RESULTS_MONTHS).replace(day=1), "end": today}
    data = request.GET if "start" in request.GET or "end" in request.GET else None
    form = DateRangeForm(data, initial=default)
    rows = None
    if data is None or form.is_valid():
        bounds = form.cleaned_data if data is not None else default
        rows = followup.followup_results(
            jurisdiction_ids=request.user.jurisdiction_ids, on=today, **bounds
        )
        if request.GET.get("format") == "csv":
            return _csv("unlicensed-follow-up-results.csv", RESULT_COLUMNS, rows)
    cities = request.user.served_list
    return render(
        request,
        "clinics/unlicensed_results.html",
        {
            "form": form,
            "rows": rows,
            "columns": RESULT_COLUMNS,
            "measures": followup.measure_rules(cities, on=today),
            "show_city": len(cities) > 1,
            "query": request.GET.urlencode(),
        },
        status=400 if data is not None and not form.is_valid() else 200,
    )


def _csv(name: str, columns, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerow([key for key, _label in columns])
    for row in rows:
        writer.writerow([safe_cell(row[key]) for key, _label in columns])
    return response
