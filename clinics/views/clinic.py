"""The clinic's pages: its certificates, one new certificate
with the signed copy, a CSV batch with its template. Thin: role, clinic, one service."""

import csv

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import STAFF_ROLES, VETERINARIAN
from base.uploads import upload_response
from ordinance.refusals import Refused

from ..access import clinic_for, get_submission, submissions_for
from ..forms import FORM51_FIELDS, BatchForm, CertificateForm
from ..models import Clinic
from ..services import certificates

LIST_LIMIT = 200


def _cities(clinic) -> list:
    return list(clinic.jurisdictions.order_by("name"))


def _city(form, cities):
    return form.cleaned_data.get("jurisdiction") or cities[0]


def _clinic_with_vets(request) -> Clinic:
    clinic = clinic_for(request)
    return Clinic.objects.prefetch_related("veterinarians").get(pk=clinic.pk)


@role_required(VETERINARIAN)
def home(request):
    clinic = clinic_for(request)
    submissions = (
        submissions_for(request)
        .select_related("jurisdiction", "animal")
        .order_by("-submitted_at", "-pk")[:LIST_LIMIT]
    )
    return render(
        request,
        "clinics/home.html",
        {"clinic": clinic, "submissions": submissions, "limit": LIST_LIMIT},
    )


@role_required(VETERINARIAN)
def certificate_new(request):
    clinic = _clinic_with_vets(request)
    cities = _cities(clinic)
    form = CertificateForm(
        request.POST or None, request.FILES or None, clinic=clinic, cities=cities, with_file=True
    )
    if request.method == "POST" and form.is_valid():
        fields = {k: form.cleaned_data[k] for k in FORM51_FIELDS}
        try:
            submission = certificates.certificate_submit(
                clinic=clinic,
                jurisdiction=_city(form, cities),
                actor=request.user,
                certificate=form.cleaned_data["certificate"],
                **fields,
            )
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            messages.success(
                request,
                _("Certificate sent: %(status)s.") % {"status": submission.get_status_display()},
            )
            return redirect("clinics:submission_detail", submission.pk)
    return render(request, "clinics/certificate_form.html", {"clinic": clinic, "form": form})


@role_required(VETERINARIAN)
def batch_new(request):
    clinic = _clinic_with_vets(request)
    cities = _cities(clinic)
    form = BatchForm(request.POST or None, request.FILES or None, cities=cities)
    errors = []
    if request.method == "POST" and form.is_valid():
        city = _city(form, cities)
        try:
            rows = certificates.batch_rows(
                form.cleaned_data["file"],
                lambda data: CertificateForm(data, clinic=clinic),
            )
            batch = certificates.batch_submit(
                clinic=clinic, jurisdiction=city, actor=request.user, rows=rows
            )
        except Refused as refused:
            errors = refused.checks
        else:
            messages.success(
                request,
                _("%(n)d certificates received.") % {"n": batch.row_count},
            )
            return redirect("clinics:home")
    return render(
        request,
        "clinics/batch_form.html",
        {"clinic": clinic, "form": form, "errors": errors, "columns": FORM51_FIELDS},
    )


@role_required(VETERINARIAN)
def batch_template(request):
    """The CSV's first line: the form's field names, in the form's order."""
    clinic_for(request)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="rabies-certificates.csv"'
    response.write("\ufeff")  # spreadsheets read the file as UTF-8
    csv.writer(response).writerow(FORM51_FIELDS)
    return response


@role_required(VETERINARIAN)
def submission_detail(request, pk):
    submission = get_submission(request, pk)
    return render(request, "clinics/submission_detail.html", {"submission": submission})


@role_required(VETERINARIAN, *STAFF_ROLES)
def submission_file(request, pk):
    """The signed certificate as the clinic uploaded it, as a download (base.uploads)."""
    submission = get_submission(request, pk)
    if not submission.certificate:
        raise Http404
    return upload_response(
        submission.certificate, download_name=f"rabies-certificate-{submission.pk}"
    )
