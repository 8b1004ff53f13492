"""The police's request for written proof of vaccination or insurance after a bite
(RAB-09), and its answer."""

from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import BiteReport, DocumentRequest, RequestedDocument


@refusing()
@transaction.atomic
def document_request_log(
    bite: BiteReport, *, actor, kind: str, why_warranted: str, requested_on: date, now=None
) -> DocumentRequest:
    """Log the police's request for written proof of vaccination or insurance (RAB-09)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    if kind not in RequestedDocument.values:
        raise Refused.because(_("Document"), _("Choose the document requested."), field="kind")
    if not why_warranted.strip():
        raise Refused.because(
            _("Why it is warranted"),
            _("Say why the request is warranted."),
            rule_citation(bite.jurisdiction, "RAB-09"),
            field="why_warranted",
        )
    refuse_if_future(
        requested_on, _("Requested on"), field="requested_on", today=timezone.localdate(now)
    )
    if requested_on < timezone.localtime(bite.bitten_at).date():
        raise Refused.because(
            _("Requested on"), _("The request cannot come before the bite."), field="requested_on"
        )
    request = DocumentRequest.objects.create(
        bite_report=bite,
        jurisdiction=bite.jurisdiction,
        kind=kind,
        why_warranted=why_warranted.strip(),
        requested_on=requested_on,
        requested_by=actor,
    )
    Event.record(
        "rabies.bite.document_requested",
        bite,
        actor=actor,
        at=now,
        summary=_("Requested: %(doc)s") % {"doc": request.get_kind_display()},
        data={"request": request.pk, "kind": kind},
    )
    return request


@refusing()
@transaction.atomic
def document_request_received(
    request: DocumentRequest, *, actor, received_on: date, file=None, note: str = "", now=None
) -> DocumentRequest:
    """The document came in: its date and a copy (the form checks the upload)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, request.jurisdiction)
    request = DocumentRequest.objects.select_for_update().get(pk=request.pk)
    if request.received_on:
        raise Refused.because(_("Document"), _("This document was already received."))
    refuse_if_future(
        received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
    )
    if received_on < request.requested_on:
        raise Refused.because(
            _("Received on"),
            _("The document cannot be received before it was requested."),
            field="received_on",
        )
    if not file:
        raise Refused.because(_("Document"), _("Attach a copy of the document."), field="file")
    request.received_on, request.file, request.note = received_on, file, note.strip()
    request.save(update_fields=["received_on", "file", "note"])
    Event.record(
        "rabies.bite.document_received",
        request.bite_report,
        actor=actor,
        at=now,
        summary=_("Received: %(doc)s") % {"doc": request.get_kind_display()},
        data={"request": request.pk},
    )
    return request
