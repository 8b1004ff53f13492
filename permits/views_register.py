"""The register of what each Glencoe premises may keep (REC-17) and the exemptions from
the wild-animal prohibition (Subd. 32(B), (C)): the premises page's section, the
exemption form, the permit-to-premises link, the report with its CSV, and the sections
on the animal page (species classification, WLD-01) and the impound case page (Subd. 34).

A city without the wild-animal rules (North Branch) gets no section anywhere, and its
staff a plain statement instead of the report. Thin views: role first, then the record
within the user's cities (404), one service call, render.
"""

import csv

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base import sections
from base.access import get_in_jurisdiction, role_required
from base.csvcells import safe_cell
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, STAFF_ROLES
from licensing.models import Premises
from licensing.services.species import register_exemption_lookup
from ordinance.refusals import Refused
from ordinance.rules import rule_citation
from ordinance.species import classify, default_kind
from permits.forms_register import ExemptionEndForm, ExemptionForm, PermitLinkForm
from permits.models import WildExemption
from permits.services import register

ACT_ROLES = (CLERK, ADMINISTRATOR)
REPORT_SCREEN_ROWS = 500


def _premises(request, pk):
    return get_in_jurisdiction(Premises.objects.select_related("jurisdiction"), request.user, pk=pk)


def _premises_or_404(request, pk):
    premises = _premises(request, pk)
    if not register.has_register(premises.jurisdiction):
        raise Http404  # no such rules in this city's ordinance: nothing to record
    return premises


# --- Sections on pages below (base.sections) ------------------------------------------


def premises_register_section(request, premises):
    """The premises page: what it may keep. Nothing for a city without the rules."""
    if not register.has_register(premises.jurisdiction):
        return None
    may_act = request.user.has_role(*ACT_ROLES)
    return (
        "permits/_premises_register.html",
        {
            "register": register.register_for([premises])[premises.pk],
            "premises": premises,
            "may_act": may_act,
            "link_form": PermitLinkForm(premises=premises) if may_act else None,
            "wild_section": rule_citation(premises.jurisdiction, "WLD-03"),
        },
    )


def animal_classification_section(request, animal):
    """The animal page: its class under the species table, and the flag staff decide on
    (an unvaccinated cat, an intact ferret: WLD-01, Appendix D G38)."""
    city = animal.jurisdiction
    today = timezone.localdate()
    vaccinated = any(v.next_due_on and v.next_due_on >= today for v in animal.vaccinations.all())
    found = classify(
        city,
        kind=animal.kind or default_kind(city, animal.species),
        vaccinated=vaccinated,
        sterilized=animal.sterilized,
    )
    if found is None:
        return None
    return (
        "permits/_animal_classification.html",
        {"animal": animal, "found": found, "recorded": bool(animal.kind)},
    )


def impound_wild_section(request, case):
    """An impound of a wild animal (Subd. 34; WLD-08) links to the register of the
    premises it came from."""
    animal = case.animal
    if animal is None or not register.has_register(case.jurisdiction):
        return None
    city = case.jurisdiction
    found = classify(city, kind=animal.kind or default_kind(city, animal.species))
    if found is None or not found.is_wild:
        return None
    return (
        "permits/_impound_wild.html",
        {"animal": animal, "found": found, "section": rule_citation(city, "WLD-08")},
    )


def register_sections() -> None:
    sections.register("licensing.premises_detail", "permits", premises_register_section, order=10)
    sections.register("licensing.animal_detail", "species", animal_classification_section, order=5)
    sections.register("impound.case_detail", "wild_register", impound_wild_section, order=90)
    register_exemption_lookup("permits", register.exemption_for)


# --- Exemptions and links ----------------------------------------------------------------


@role_required(*ACT_ROLES)
def exemption_new(request, premises_pk):
    premises = _premises_or_404(request, premises_pk)
    form = ExemptionForm(request.POST or None, premises=premises)
    if request.method == "POST" and form.is_valid():
        try:
            register.exemption_record(premises=premises, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Exemption recorded."))
            return redirect("licensing:premises_detail", premises.pk)
    return render(
        request,
        "permits/exemption_form.html",
        {"form": form, "premises": premises, "sections": form.sections},
    )


@role_required(*ACT_ROLES)
def exemption_end(request, pk):
    exemption = get_in_jurisdiction(
        WildExemption.objects.select_related("premises", "jurisdiction"), request.user, pk=pk
    )
    form = ExemptionEndForm(request.POST or None, initial={"ended_on": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        try:
            register.exemption_end(exemption=exemption, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Exemption ended."))
            return redirect("licensing:premises_detail", exemption.premises_id)
    return render(request, "permits/exemption_end.html", {"form": form, "exemption": exemption})


@role_required(*ACT_ROLES)
@require_POST
def permit_link(request, premises_pk):
    premises = _premises_or_404(request, premises_pk)
    form = PermitLinkForm(request.POST, premises=premises)
    if form.is_valid():
        try:
            register.permit_link_premises(
                permit=form.cleaned_data["permit"], premises=premises, actor=request.user
            )
        except Refused as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("The permit now names this premises."))
    else:
        messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return redirect("licensing:premises_detail", premises.pk)


# --- The report --------------------------------------------------------------------------

COLUMNS = ("premises", "what", "number", "holder", "status", "section", "starts", "ends")


def _header_labels():
    return [
        _("Premises"),
        _("What"),
        _("Number"),
        _("Holder"),
        _("Status"),
        _("Section"),
        _("From"),
        _("Until"),
    ]


@role_required(*STAFF_ROLES)
def register_report(request):
    cities = [c for c in request.user.served_list if register.has_register(c)]
    if not cities:
        names = ", ".join(c.name for c in request.user.served_list)
        return render(request, "permits/register_none.html", {"cities": names})
    csv_wanted = request.GET.get("format") == "csv"
    rows = register.register_rows(
        [c.pk for c in cities], limit=None if csv_wanted else REPORT_SCREEN_ROWS + 1
    )
    if csv_wanted:
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="premises-register.csv"'
        writer = csv.writer(response)
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow([safe_cell(row[c]) for c in COLUMNS])
        return response
    return render(
        request,
        "permits/register.html",
        {
            "headers": _header_labels(),
            "rows": rows[:REPORT_SCREEN_ROWS],
            "truncated": len(rows) > REPORT_SCREEN_ROWS,
        },
    )


urlpatterns = [
    path("register/", register_report, name="register"),
    path("premises/<int:premises_pk>/exemptions/new/", exemption_new, name="exemption_new"),
    path("exemptions/<int:pk>/end/", exemption_end, name="exemption_end"),
    path("premises/<int:premises_pk>/link/", permit_link, name="permit_link"),
]
