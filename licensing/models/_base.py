"""Pieces shared by the licensing models: issued records are never deleted."""

from django.db import models
from django.utils.translation import gettext as _


class IssuedRecordDeletion(Exception):
    """Licenses, tags and receipts are voided by a new record, never deleted."""


class NoDeleteQuerySet(models.QuerySet):
    def delete(self):
        raise IssuedRecordDeletion(
            _("Issued %(model)s records cannot be deleted; void them instead.")
            % {"model": self.model._meta.verbose_name}
        )

    def for_user(self, user):
        """Rows of the jurisdictions this staff user serves (none for anyone else)."""
        return self.filter(jurisdiction_id__in=user.jurisdiction_ids)


class NoDeleteMixin:
    """style.md: "Issued records are never deleted" (pretix test_cannot_delete_invoice)."""

    def delete(self, *args, **kwargs):
        raise IssuedRecordDeletion(
            _("Issued %(model)s records cannot be deleted; void them instead.")
            % {"model": self._meta.verbose_name}
        )
