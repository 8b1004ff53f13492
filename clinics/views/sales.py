"""Licenses sold at the clinic: the clinic's tags and sales, the sale
page (the counter's checks and fee lines with their sections, payment collected at the
clinic) and the city's receipt as a PDF. Veterinarian role, its own clinic only (404
for another clinic's certificate or sale). Thin: role, clinic, one service."""

import logging

from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_http_methods

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import VETERINARIAN
from licensing.services.assessment import license_term_choice
from licensing.services.documents import documents_for
from notices import services as documents
from ordinance.refusals import Refused

from ..access import clinic_for, get_sale, sales_for, submissions_for
from ..forms import SaleForm, SaleSearchForm
from ..models import RECORDED_STATUSES, ConsignedTag, HoldingStatus
from ..services import sales
from ..services.statements import number_ranges

logger = logging.getLogger(__name__)
LIST_LIMIT = 50
YEAR_DIGITS = 4


def _held(clinic) -> list[dict]:
    """The tags the clinic holds unsold, by city and year, as number ranges (one query)."""
    pairs = (
        ConsignedTag.objects.filter(block__clinic=clinic, status=HoldingStatus.HELD)
        .order_by("block__jurisdiction__name", "tag__year", "tag__number")
        .values_list("block__jurisdiction__name", "tag__year", "tag__number")
    )
    groups: dict[tuple, list] = {}
    for city, year, number in pairs:
        groups.setdefault((city, year), []).append(number)
    return [
        {"city": city, "year": year, "numbers": number_ranges(numbers), "count": len(numbers)}
        for (city, year), numbers in groups.items()
    ]


@role_required(VETERINARIAN)
def sale_list(request):
    """The clinic's tags on hand, the recorded certificates it may sell a license on,
    its latest sales and its monthly statements."""
    clinic = clinic_for(request)
    search = SaleSearchForm(request.GET or None)
    certificates = (
        submissions_for(request)
        .filter(status__in=RECORDED_STATUSES, animal__isnull=False)
        .select_related("animal__owner", "jurisdiction")
        .order_by("-submitted_at", "-pk")
    )
    if search.is_valid() and (q := search.cleaned_data["q"].strip()):
        certificates = certificates.filter(
            Q(animal__name__icontains=q) | Q(animal__owner__last_name__icontains=q)
        )
    today = timezone.localdate()
    return render(
        request,
        "clinics/sales.html",
        {
            "clinic": clinic,
            "search": search,
            "certificates": certificates[:LIST_LIMIT],
            "held": _held(clinic),
            "sales": sales_for(request)
            .select_related("license__animal", "receipt", "holding__tag")
            .order_by("-sold_at", "-pk")[:LIST_LIMIT],
            "cities": list(clinic.jurisdictions.order_by("name")),
            "today": today,
            "limit": LIST_LIMIT,
        },
    )


def _term_year(query) -> int | None:
    value = query.get("term_year", "")
    return int(value) if value.isdigit() and len(value) == YEAR_DIGITS else None


@role_required(VETERINARIAN)
@require_http_methods(["GET", "POST"])
def sale_new(request, certificate_pk):
    clinic = clinic_for(request)
    certificate = (
        submissions_for(request)
        .filter(pk=certificate_pk, status__in=RECORDED_STATUSES, animal__isnull=False)
        .select_related("vaccination", "jurisdiction")
        .first()
    )
    if certificate is None:
        raise Http404
    animal = sales.sale_animal(certificate)
    today = timezone.localdate()
    terms = license_term_choice(jurisdiction=animal.jurisdiction, on=today)
    form = SaleForm(request.POST or None, terms=terms)
    term_year = _term_year(request.GET)
    if form.is_bound:
        form.is_valid()
        term_year = form.cleaned_data.get("term_year", term_year)
    if request.method == "POST" and form.is_valid():
        try:
            sale = sales.clinic_sale(
                clinic=clinic,
                certificate=certificate,
                actor=request.user,
                tag_number=form.cleaned_data.get("tag_number"),
                term_year=term_year,
            )
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            return redirect("clinics:sale_detail", sale.pk)
    assessment = sales.sale_assess(
        certificate=certificate, animal=animal, on=today, term_year=term_year
    )
    return render(
        request,
        "clinics/sale_new.html",
        {
            "clinic": clinic,
            "certificate": certificate,
            "animal": animal,
            "assessment": assessment,
            "form": form,
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@role_required(VETERINARIAN)
def sale_detail(request, pk):
    sale = get_sale(request, pk)
    return render(
        request,
        "clinics/sale_detail.html",
        {"sale": sale, "receipt_doc": documents_for(sale.receipt).get("receipt")},
    )


@role_required(VETERINARIAN)
def sale_receipt(request, pk):
    """The city's receipt as issued at the sale (the archived PDF, REC-01)."""
    sale = get_sale(request, pk)
    document = documents_for(sale.receipt).get("receipt")
    if document is None:
        raise Http404
    try:
        data = documents.document_pdf(document)
    except (documents.DocumentIntegrityError, OSError):
        logger.exception("Archived PDF of document %s is missing or altered", document.pk)
        return render(
            request, "notices/document_unavailable.html", {"document": document}, status=500
        )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False, filename=document.download_name
    )
    response["Cache-Control"] = "private, no-store"
    return response
