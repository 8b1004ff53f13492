"""Reads of the document archive that views share."""

from django.http import Http404

from base.access import in_user_cities

from .models import IssuedDocument


def document_get_for_user(*, user, pk) -> IssuedDocument:
    """The document if this user may see it, else 404 (style.md, "Deny by default").

    Staff see documents of the cities they serve; a resident sees a document only when
    it was issued to them (``owner_user``).
    """
    document = (
        IssuedDocument.objects.for_user(user)
        .select_related("jurisdiction", "issued_by", "owner_user", "voids", "void_record")
        .filter(pk=pk)
        .first()
    )
    if document is None:
        raise Http404
    return document


def document_archive_for_staff(user):
    """The staff archive list: the user's cities only, newest first, one query a page."""
    return (
        in_user_cities(IssuedDocument.objects.all(), user)
        .select_related("jurisdiction", "issued_by", "voids", "void_record")
        .order_by("-issued_at", "-pk")
    )
