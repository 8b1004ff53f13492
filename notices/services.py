"""Issue, re-print, re-render and void documents.

Other apps call these to print receipts, license certificates and notices:

    doc = document_issue(kind="receipt", template="licensing/receipt.html",
                         context={"lines": [...], "total": Decimal(...)},
                         jurisdiction=license.jurisdiction, actor=request.user,
                         title="Receipt", number=receipt.number, subject=receipt,
                         owner_user=owner.user, now=now)

The context is frozen first (``snapshot``), the PDF rendered from the frozen copy, and
the bytes archived with their SHA-256 (architecture.md, "Documents"; style.md).
"""

import hashlib
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime

from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base import agents
from kernel.checks import CITY, refuse_unless_serves
from ordinance.models import Event
from ordinance.refusals import Refused

from .models import IssuedDocument
from .rendering import DocumentRenderError, declared_page_size, render_html, render_pdf
from .snapshots import is_serialisable, snapshot, thaw

__all__ = [
    "DocumentIntegrityError",
    "DocumentRenderError",
    "Filing",
    "document_issue",
    "document_pdf",
    "document_render",
    "document_void",
    "documents_render_after_commit",
    "documents_render_pending",
    "rendering_deferred",
    "snapshot",
    "thaw",
]

RESERVED_KEYS = ("jurisdiction", "document", "page_size")
VOID_TEMPLATE = "void_notice.html"
_KIND = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


class DocumentIntegrityError(RuntimeError):
    """The archived file no longer matches the hash taken when it was issued."""


# Set only by ``rendering_deferred()``: issue now, lay the PDF out at its first print.
_DEFERRED: ContextVar[bool] = ContextVar("notices_rendering_deferred", default=False)


@contextmanager
def rendering_deferred():
    """Within this block, documents are issued (number, frozen snapshot, issuer, time,
    event) but their PDF is laid out the first time someone prints it, from the same
    frozen snapshot, and archived with its SHA-256 then.

    For loading history in bulk (``demo_data`` replays two licensing seasons: about
    1,300 documents at a quarter of a second of WeasyPrint layout each), and for the
    papers of a sale (receipt, 80 mm slip, license certificate): those are queued for the
    worker after commit with ``documents_render_after_commit``, and a print before the
    worker gets there lays the one printed out on the spot.
    """
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check_actor(actor, jurisdiction, owner_user):
    """Staff issue only for cities they serve; a resident only their own documents; an
    agent of the city (a clinic selling its licenses, ``base.agents``) for that city."""
    if actor is None:  # a scheduled job
        return
    if owner_user is not None and actor.pk == owner_user.pk:
        return
    if actor.is_staff_member:
        refuse_unless_serves(actor, jurisdiction)
    elif not agents.acts_for(actor, jurisdiction.pk):
        raise Refused.because(
            CITY, _("You may not issue documents for %(city)s.") % {"city": jurisdiction}
        )


def _frozen(context, *, kind, number, title, jurisdiction, actor, now) -> dict:
    clash = [key for key in RESERVED_KEYS if key in context]
    if clash:
        raise ValueError(f"Context keys {clash} are reserved: the document fills them in.")
    frozen = snapshot(context)
    # The city and issuer as they were at issue time, not as the live rows say later.
    frozen["jurisdiction"] = {
        "name": jurisdiction.name,
        "short_name": jurisdiction.short_name,
        "seal_text": jurisdiction.seal_text,
        "address": jurisdiction.address,
        "phone": jurisdiction.phone,
    }
    frozen["document"] = snapshot(
        {
            "kind": kind,
            "number": number,
            "title": title,
            "issued_at": now,
            "issued_by": {
                "name": (actor.get_full_name() or actor.username) if actor else "",
                "title": getattr(actor, "title", "") if actor else "",
            },
        }
    )
    if not is_serialisable(frozen):
        raise TypeError("The document context is not JSON-serialisable.")
    return frozen


@dataclass(frozen=True)
class Filing:
    """Where an issued document is filed: its number, the record it is about and the
    resident who may download it (all optional)."""

    number: str = ""
    subject: object = None
    owner_user: object = None


def document_issue(
    *,
    kind: str,
    template: str,
    context: dict,
    jurisdiction,
    actor,
    title: str,
    now: datetime | None = None,
    **filing,
) -> IssuedDocument:
    """Freeze ``context``, render it to PDF, archive the bytes, record the event.

    ``actor`` is None for a scheduled job; staff may issue only for a city they serve.
    ``filing``: ``number``, ``subject``, ``owner_user`` (``Filing``).
    """
    return _issue(
        kind=kind,
        template=template,
        context=context,
        jurisdiction=jurisdiction,
        actor=actor,
        title=title,
        filing=Filing(**filing),
        now=now or timezone.now(),
    )


@transaction.atomic
def _issue(
    *,
    kind,
    template,
    context,
    jurisdiction,
    actor,
    title,
    filing: Filing,
    now,
    voids=None,
    void_reason="",
) -> IssuedDocument:
    if not _KIND.match(kind or ""):
        raise ValueError(f"Document kind must be a lower-case slug, got {kind!r}.")
    number, subject = filing.number, filing.subject
    _check_actor(actor, jurisdiction, filing.owner_user)
    frozen = _frozen(
        context,
        kind=kind,
        number=number,
        title=title,
        jurisdiction=jurisdiction,
        actor=actor,
        now=now,
    )
    deferred = _DEFERRED.get() and voids is None
    if deferred:  # laid out at the first print (rendering_deferred); the page size now
        pdf, page_size = b"", declared_page_size(render_html(template=template, snapshot=frozen))
    else:
        pdf, page_size = render_pdf(template=template, snapshot=frozen)
    document = IssuedDocument(
        kind=kind,
        number=number,
        title=title,
        template=template,
        page_size=page_size,
        snapshot=frozen,
        sha256=_sha256(pdf) if pdf else "",
        size=len(pdf),
        issued_at=now,
        issued_by=actor,
        jurisdiction=jurisdiction,
        owner_user=filing.owner_user,
        voids=voids,
        void_reason=void_reason,
    )
    if subject is not None:
        document.subject_type = ContentType.objects.get_for_model(subject)
        document.subject_id = subject.pk
    # A rolled-back transaction leaves at most an unreferenced file behind, never a row
    # without its file.
    if not deferred:
        document.file.save(f"{kind}-{number or 'unnumbered'}.pdf", ContentFile(pdf), save=False)
    document.save()
    Event.record(
        "notices.document.issued",
        document,
        actor=actor,
        jurisdiction=jurisdiction,
        at=now,
        summary=f"{title} {number}".strip(),
        data={
            "kind": kind,
            "number": number,
            "sha256": document.sha256,
            "subject_type": document.subject_type_id,
            "subject_id": document.subject_id,
        },
    )
    return document


def document_pdf(document: IssuedDocument) -> bytes:
    """The archived bytes, exactly as issued; refuses a file that fails its hash."""
    if not document.sha256:
        document = _render_deferred(document)
    with document.file.open("rb") as handle:
        data = handle.read()
    if _sha256(data) != document.sha256:
        raise DocumentIntegrityError(
            f"Archived file of document {document.pk} does not match its SHA-256."
        )
    return data


@transaction.atomic
def _render_deferred(document: IssuedDocument) -> IssuedDocument:
    """Lay out a document issued under ``rendering_deferred`` from its frozen snapshot,
    once: the row lock makes two first prints at the same moment archive one file."""
    document = IssuedDocument.objects.select_for_update().get(pk=document.pk)
    if document.sha256:
        return document
    pdf, _size = render_pdf(
        template=document.template, snapshot=document.snapshot, page_size=document.page_size
    )
    document.file.save(
        f"{document.kind}-{document.number or 'unnumbered'}.pdf", ContentFile(pdf), save=False
    )
    IssuedDocument.objects.filter(pk=document.pk).archive_deferred_pdf(
        file=document.file.name, sha256=_sha256(pdf), size=len(pdf)
    )
    Event.record(
        "notices.document.rendered",
        document,
        actor=None,
        jurisdiction=document.jurisdiction,
        summary=str(document),
        data={"sha256": _sha256(pdf)},
    )
    return IssuedDocument.objects.get(pk=document.pk)


def documents_render_pending(pks) -> list[int]:
    """Lay out and archive those of ``pks`` still waiting for their PDF (issued under
    ``rendering_deferred``); the ones already archived are left alone, so running this
    twice for the same document renders it once and its bytes never change. Returns the
    ids laid out by this call (or, at the same moment, by a print that held the lock)."""
    done = []
    for document in IssuedDocument.objects.filter(pk__in=list(pks), sha256="").order_by("pk"):
        _render_deferred(document)  # locks the row and checks again
        done.append(document.pk)
    return done


def documents_render_after_commit(documents) -> None:
    """Queue the layout of documents just issued under ``rendering_deferred`` for the
    Celery worker, once the use case's transaction commits (a rollback queues nothing).

    Inside an outer ``rendering_deferred`` block (a bulk load) nothing is queued: those
    documents are laid out at their first print. ``robust``: the use case has committed,
    so a broker that cannot be reached is logged, not shown as an error; the document is
    then laid out at its first print, as always.
    """
    pks = [document.pk for document in documents if not document.sha256]
    if not pks or _DEFERRED.get():
        return

    def queue():
        from .tasks import render_documents

        render_documents.delay(pks)

    transaction.on_commit(queue, robust=True)


def document_render(*, template: str, snapshot: dict, page_size: str | None = None) -> bytes:
    """Render a snapshot to PDF without archiving it (re-render checks, previews)."""
    pdf, _size = render_pdf(template=template, snapshot=snapshot, page_size=page_size)
    return pdf


@transaction.atomic
def document_void(
    *, document: IssuedDocument, actor, reason: str, now: datetime | None = None
) -> IssuedDocument:
    """Issue a void record pointing at ``document``; the original stays as it was."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("A void needs a reason.")
    # Lock the original so two clerks voiding at once produce one void record.
    original = IssuedDocument.objects.select_for_update().get(pk=document.pk)
    if not original.sha256:  # the void notice cites the original's hash
        original = _render_deferred(original)
    if original.is_void_record:
        raise ValueError("A void record cannot itself be voided.")
    if IssuedDocument.objects.filter(voids=original).exists():
        raise ValueError(f"Document {original} is already void.")
    original_data = thaw(original.snapshot)["document"]
    void = _issue(
        kind=original.kind,
        template=VOID_TEMPLATE,
        context={
            "original": {**original_data, "pk": original.pk, "sha256": original.sha256},
            "reason": reason,
        },
        jurisdiction=original.jurisdiction,
        actor=actor,
        title=_("VOID: %(title)s") % {"title": original.title},
        filing=Filing(original.number, original.subject, original.owner_user),
        now=now,
        voids=original,
        void_reason=reason,
    )
    Event.record(
        "notices.document.voided",
        original,
        actor=actor,
        jurisdiction=original.jurisdiction,
        at=now,
        summary=reason,
        data={"void_document": void.pk, "reason": reason},
    )
    return void
