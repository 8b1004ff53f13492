"""The administrator's export pages: ask, watch, download.

Administrators only, and only exports whose every city they serve: anything else is a
404, as another city's record is (style.md "Deny by default")."""

from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.roles import ADMINISTRATOR

from .forms import ExportForm
from .models import ExportStatus
from .selectors import exports_for
from .services.exports import export_build, export_downloaded, export_request

LISTED = 50  # the newest exports on the page; older ones stay as records


def _export(request, pk):
    export = exports_for(request.user).filter(pk=pk).select_related("requested_by").first()
    if export is None:
        raise Http404
    return export


@role_required(ADMINISTRATOR)
def export_list(request):
    form = ExportForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        export = export_request(actor=request.user, cities=list(form.cleaned_data["cities"]))
        messages.success(request, _("Your export is being written. This page says when."))
        return redirect("records:export_detail", export.pk)
    exports = (
        exports_for(request.user)
        .select_related("requested_by")
        .prefetch_related("jurisdictions")
        .order_by("-requested_at", "-pk")[:LISTED]
    )
    return render(
        request,
        "records/export_list.html",
        {"form": form, "exports": exports, "several_cities": len(request.user.served_list) > 1},
        status=400 if form.is_bound else 200,
    )


@role_required(ADMINISTRATOR)
def export_detail(request, pk):
    export = _export(request, pk)
    return render(
        request,
        "records/export_detail.html",
        {
            "export": export,
            "cities": export.jurisdictions.all(),
            "counts": sorted(export.counts.items()),
            "pending": export.status in (ExportStatus.PENDING, ExportStatus.RUNNING),
        },
    )


@role_required(ADMINISTRATOR)
@require_POST
def export_build_now(request, pk):
    """When no worker has taken the export, the administrator has it written now."""
    export = _export(request, pk)
    if export.may("start"):
        export_build(export_pk=export.pk)
    return redirect("records:export_detail", export.pk)


@role_required(ADMINISTRATOR)
def export_download(request, pk):
    export = _export(request, pk)
    if not export.is_ready:
        raise Http404
    export_downloaded(export=export, actor=request.user)
    return FileResponse(export.file.open("rb"), as_attachment=True, filename=export.download_name)
