"""A clinic's monthly statement: the page, its PDF (WeasyPrint,
from a snapshot of the same figures) and its CSV. The clinic reads its own; the city's
clerk and administrator read those of the clinics serving their cities. Anyone else's
statement is a 404."""

import csv
from datetime import date

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _

from base.access import role_required
from base.csvcells import safe_cell
from base.roles import ADMINISTRATOR, CLERK, VETERINARIAN
from notices.services import document_render, snapshot

from ..access import statement_scope
from ..services.statements import clinic_statement

ROLES = (VETERINARIAN, CLERK, ADMINISTRATOR)
# The years a statement may be asked for: a bound on the address, not an ordinance value.
FIRST_YEAR, LAST_YEAR = 2000, 2100
CSV_COLUMNS = [
    "kind",
    "date",
    "receipt",
    "voids_receipt",
    "license",
    "tag_year",
    "tags",
    "count",
    "animal",
    "owner",
    "amount",
    "authority",
    "who",
    "why",
]


def _statement(request, clinic_pk, city_pk, year, month):
    if not (FIRST_YEAR <= year <= LAST_YEAR and 1 <= month <= 12):
        raise Http404
    clinic, city = statement_scope(request, clinic_pk, city_pk)
    return clinic, city, clinic_statement(clinic=clinic, jurisdiction=city, year=year, month=month)


def _month(year, month, step):
    index = year * 12 + month - 1 + step
    return index // 12, index % 12 + 1


@role_required(*ROLES)
def statement(request, clinic_pk, city_pk, year, month):
    clinic, city, found = _statement(request, clinic_pk, city_pk, year, month)
    today = timezone.localdate()
    after = _month(year, month, 1)
    return render(
        request,
        "clinics/statement.html",
        {
            "clinic": clinic,
            "city": city,
            "statement": found,
            "counts": found.counts,
            "previous": _month(year, month, -1),
            "next": after if date(*after, 1) <= today else None,
            "is_staff": request.user.is_staff_member,
        },
    )


def _snapshot(found, *, user, now) -> dict:
    return snapshot(
        {
            "statement": found.as_context(),
            "counts": found.counts,
            "clinic": found.clinic,
            "city": found.city,
            "month_label": found.month_label,
            "jurisdiction": found.city,
            "document": {
                "title": _("Monthly statement of licenses sold at the clinic"),
                "issued_at": now,
                "issued_by": {"name": user.get_full_name() or user.username},
            },
        }
    )


@role_required(*ROLES)
def statement_pdf(request, clinic_pk, city_pk, year, month):
    """The statement as a PDF for the clinic's books: rendered on request from a frozen
    copy of the figures (a working paper, as the tag mailing list; not archived)."""
    _clinic, _city, found = _statement(request, clinic_pk, city_pk, year, month)
    data = document_render(
        template="clinic_statement.html",
        snapshot=_snapshot(found, user=request.user, now=timezone.now()),
    )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False, filename=f"clinic-statement-{year}-{month:02d}.pdf"
    )
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*ROLES)
def statement_csv(request, clinic_pk, city_pk, year, month):
    _clinic, _city, found = _statement(request, clinic_pk, city_pk, year, month)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="clinic-statement-{year}-{month:02d}.csv"'
    )
    writer = csv.writer(response)
    writer.writerow(CSV_COLUMNS)
    for row in statement_rows(found):
        writer.writerow([safe_cell(row.get(c)) for c in CSV_COLUMNS])
    return response


def statement_rows(found) -> list[dict]:
    """The statement as CSV rows: each sale and void with its receipt, each fee total
    with its authority, the tags received, returned, lost and still unsold, and the total
    due to the city."""
    rows = [
        {
            "kind": "sale",
            "date": timezone.localtime(s["at"]).date(),
            "receipt": s["receipt"],
            "license": s["license"],
            "tag_year": s["tag_year"],
            "tags": s["tag"],
            "count": 1,
            "animal": s["animal"],
            "owner": s["owner"],
            "amount": s["total"],
            "who": s["sold_by"],
        }
        for s in found.sales
    ]
    rows += [
        {
            "kind": "void",
            "date": timezone.localtime(v["at"]).date(),
            "receipt": v["number"],
            "voids_receipt": v["voids"],
            "amount": v["total"],
        }
        for v in found.voids
    ]
    rows += [
        {
            "kind": "fee",
            "count": f["lines"],
            "amount": f["amount"],
            "authority": f["authority"],
            "why": f["description"],
        }
        for f in found.fees
    ]
    for kind in ("received", "returned", "lost"):
        rows += [
            {
                "kind": kind,
                "date": timezone.localtime(m["at"]).date(),
                "tag_year": m["year"],
                "tags": m["numbers"],
                "count": m["count"],
                "who": m["who"],
                "why": m["why"],
            }
            for m in getattr(found, kind)
        ]
    rows += [
        {"kind": "unsold", "tag_year": u["year"], "tags": u["numbers"], "count": u["count"]}
        for u in found.unsold
    ]
    rows.append({"kind": "due", "amount": found.due})
    return rows
