"""The administrator's import pages: upload, map, dry run, import with
a progress bar, cancel, undo, the issues as CSV.

Administrators of the batch's city only; another city's batch is a 404 (style.md "Deny
by default"). Each page reads a fixed number of rows whatever the file's size: the
preview parses the first rows without the database, the dry run's report is stored on
the batch, the issues are a download."""

import csv

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.csvcells import safe_cell
from base.roles import ADMINISTRATOR
from ordinance.refusals import Refused

from .forms import ImportUploadForm, MappingForm, TemplateSaveForm
from .models import ImportBatch, ImportIssue, ImportStatus, MappingTemplate
from .selectors import import_batches_for
from .services.imports import (
    dry_run,
    import_cancel,
    import_mapping_set,
    import_queue,
    import_undo,
)
from .services.imports.fields import SHEET_LAYOUTS, default_mapping
from .services.imports.preview import headers_of, preview

LISTED = 50
ISSUES_SHOWN = 20


def _batch(request, pk) -> ImportBatch:
    batch = (
        import_batches_for(request.user)
        .select_related("jurisdiction", "created_by")
        .filter(pk=pk)
        .first()
    )
    if batch is None:
        raise Http404
    return batch


@role_required(ADMINISTRATOR)
def import_list(request):
    form = ImportUploadForm(request.POST or None, request.FILES or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        batch = ImportBatch(
            jurisdiction=data["city"],
            source_name=data["source_name"],
            layout=data["layout"],
            original_name=data["file"].name[-200:],
            created_by=request.user,
        )
        batch.file.save(f"{form.kind}-upload.{form.kind}", data["file"], save=False)
        batch.mapping = default_mapping(batch.layout, headers_of(batch))
        last = (
            MappingTemplate.objects.filter(
                jurisdiction=batch.jurisdiction,
                source_name=batch.source_name,
                layout=batch.layout,
            )
            .order_by("-saved_at")
            .first()
        )
        if last is not None:
            batch.mapping = last.mapping
        batch.save()
        return redirect("records:import_detail", batch.pk)
    batches = (
        import_batches_for(request.user)
        .select_related("jurisdiction")
        .order_by("-created_at", "-pk")[:LISTED]
    )
    return render(
        request,
        "records/import_list.html",
        {"form": form, "batches": batches},
        status=400 if form.is_bound else 200,
    )


def _detail_context(request, batch, *, mapping_form=None, template_form=None):
    sheet = batch.layout in SHEET_LAYOUTS
    editable = batch.may("map")
    headers = headers_of(batch)
    if mapping_form is None and sheet:
        mapping_form = MappingForm(headers=headers, mapping=batch.mapping, layout=batch.layout)
    issues = list(batch.issues.filter(dry_run=batch.status == ImportStatus.DRY_RUN)[:ISSUES_SHOWN])
    return {
        "batch": batch,
        "sheet": sheet,
        "editable": editable,
        "may_start": batch.may("start"),
        "may_undo": batch.may("undo"),
        "mapping_form": mapping_form,
        "mapped": batch.mapping.get("columns", {}),
        "template_form": template_form or TemplateSaveForm(),
        "templates": MappingTemplate.objects.filter(
            jurisdiction=batch.jurisdiction, source_name=batch.source_name, layout=batch.layout
        ).order_by("name")
        if sheet
        else [],
        "preview": preview(batch) if sheet else None,
        "report": batch.report.get("rows", []),
        "issues": issues,
    }


@role_required(ADMINISTRATOR)
def import_detail(request, pk):
    batch = _batch(request, pk)
    status = 200
    mapping_form = template_form = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        if not batch.may("map"):
            messages.error(request, _("This import has started: its mapping is fixed."))
            return redirect("records:import_detail", batch.pk)
        if action == "load":
            template = MappingTemplate.objects.filter(
                pk=request.POST.get("template") or 0,
                jurisdiction=batch.jurisdiction,
                source_name=batch.source_name,
                layout=batch.layout,
            ).first()
            if template is None:
                raise Http404
            import_mapping_set(batch, template.mapping, actor=request.user)
            messages.success(request, _("Mapping “%(name)s” loaded.") % {"name": template.name})
            return redirect("records:import_detail", batch.pk)
        if batch.layout in SHEET_LAYOUTS and action in ("map", "save", "dry_run"):
            mapping_form = MappingForm(
                request.POST, headers=headers_of(batch), mapping={}, layout=batch.layout
            )
            template_form = TemplateSaveForm(request.POST if action == "save" else None)
            if mapping_form.is_valid() and (action != "save" or template_form.is_valid()):
                import_mapping_set(batch, mapping_form.mapping(), actor=request.user)
                if action == "save":
                    MappingTemplate.objects.update_or_create(
                        jurisdiction=batch.jurisdiction,
                        source_name=batch.source_name,
                        name=template_form.cleaned_data["template_name"],
                        defaults={
                            "mapping": batch.mapping,
                            "layout": batch.layout,
                            "saved_by": request.user,
                        },
                    )
                    messages.success(request, _("Mapping saved."))
                if action == "dry_run":
                    dry_run(batch)
                    messages.success(request, _("Dry run done: nothing was written."))
                return redirect("records:import_detail", batch.pk)
            status = 400
        elif action == "dry_run":
            dry_run(batch)
            messages.success(request, _("Dry run done: nothing was written."))
            return redirect("records:import_detail", batch.pk)
        else:
            status = 400
    context = _detail_context(
        request, batch, mapping_form=mapping_form, template_form=template_form
    )
    return render(request, "records/import_detail.html", context, status=status)


@role_required(ADMINISTRATOR)
@require_POST
def import_start(request, pk):
    batch = _batch(request, pk)
    if batch.status != ImportStatus.DRY_RUN:
        messages.error(request, _("Do a dry run of this mapping first."))
        return redirect("records:import_detail", batch.pk)
    with transaction.atomic():
        import_queue(batch)
    messages.success(request, _("The import has started."))
    return redirect("records:import_detail", batch.pk)


@role_required(ADMINISTRATOR)
def import_progress(request, pk):
    """The progress bar, polled by htmx while the import runs."""
    batch = _batch(request, pk)
    response = render(request, "records/_import_progress.html", {"batch": batch})
    if request.htmx and not batch.is_active:
        response["HX-Refresh"] = "true"  # finished: show the whole page with its result
    return response


@role_required(ADMINISTRATOR)
@require_POST
def import_cancel_view(request, pk):
    batch = _batch(request, pk)
    import_cancel(batch)
    messages.success(request, _("The import stops after the rows it is working on."))
    return redirect("records:import_detail", batch.pk)


@role_required(ADMINISTRATOR)
@require_POST
def import_undo_view(request, pk):
    batch = _batch(request, pk)
    try:
        import_undo(batch=batch, actor=request.user)
    except Refused as refused:
        messages.error(request, " ".join(str(c) for c in refused.checks))
    else:
        messages.success(request, _("The import was undone."))
    return redirect("records:import_detail", batch.pk)


@role_required(ADMINISTRATOR)
def import_issues_csv(request, pk):
    batch = _batch(request, pk)
    dry = batch.status == ImportStatus.DRY_RUN
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="import-{batch.pk}-issues.csv"'
    writer = csv.writer(response)
    writer.writerow([_("row"), _("field"), _("kind"), _("message")])
    issues = ImportIssue.objects.filter(batch=batch, dry_run=dry).order_by("row_number", "pk")
    for issue in issues.iterator(chunk_size=2000):
        writer.writerow(
            [
                issue.row_number,
                safe_cell(issue.field),
                issue.get_kind_display(),
                safe_cell(issue.message),
            ]
        )
    return response


@role_required(ADMINISTRATOR)
@require_POST
def import_run_now(request, pk):
    """When no worker has taken the batch, the administrator has it run in this request
    (as an export is written on the spot); a batch already taken is left alone."""
    from .services.imports import import_apply

    batch = _batch(request, pk)
    if batch.may("start"):
        import_apply(batch.pk)
    return redirect("records:import_detail", batch.pk)
