"""The document archive: list, detail, and the archived PDF itself.

The role check always comes first (base.access); the object lookup after it gives
404 for a document the user may not see, whoever they are.
"""

import logging

from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header

from base.access import role_required
from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT, STAFF_ROLES

from . import selectors, services
from .filters import DocumentFilter

logger = logging.getLogger(__name__)
PAGE_SIZE = 25


@role_required(*STAFF_ROLES)
def document_list(request):
    filterset = DocumentFilter(
        request.GET or None,
        queryset=selectors.document_archive_for_staff(request.user),
        user=request.user,
    )
    page = Paginator(filterset.qs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "notices/document_list.html",
        {
            "filter": filterset,
            "page": page,
            "query": query.urlencode(),
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


@role_required(CLERK, OFFICER, ADMINISTRATOR, RESIDENT)
def document_detail(request, pk):
    document = selectors.document_get_for_user(user=request.user, pk=pk)
    return render(
        request,
        "notices/document_detail.html",
        {
            "document": document,
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


@role_required(CLERK, OFFICER, ADMINISTRATOR, RESIDENT)
def document_pdf(request, pk):
    document = selectors.document_get_for_user(user=request.user, pk=pk)
    try:
        data = services.document_pdf(document)
    except (services.DocumentIntegrityError, OSError):
        logger.exception("Archived PDF of document %s is missing or altered", document.pk)
        return render(
            request, "notices/document_unavailable.html", {"document": document}, status=500
        )
    except services.DocumentRenderError:
        # A document issued for later rendering whose layout fails: the record
        # stands, nothing is archived, and the person is told rather than shown a 500.
        logger.exception("Document %s could not be rendered", document.pk)
        return render(
            request, "notices/document_not_rendered.html", {"document": document}, status=503
        )
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=False, filename=document.download_name
    )
    response["Cache-Control"] = "private, no-store"
    return response
