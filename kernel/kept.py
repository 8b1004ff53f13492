"""Records are kept, never deleted: one rule and one exception for every app.

A license, a receipt, a case, a notice, a citation is part of the city's record. A void
or a correction is a new record pointing at the old one (architecture.md, "Nothing is
lost"); deleting one, from a queryset or a row, raises ``RecordKept``.
"""

from django.db import models
from django.utils.translation import gettext as _

from base.access import in_user_cities


class RecordKept(Exception):
    """A kept record (or a queryset of them) was asked to delete itself."""

    def __init__(self, model, message: str = ""):
        if not message:
            message = _("%(records)s are kept; they are never deleted.") % {
                "records": str(model._meta.verbose_name_plural).capitalize()
            }
            message = f"{message} {getattr(model, 'KEPT_HINT', '')}".strip()
        super().__init__(message)


class CityQuerySet(models.QuerySet):
    """Rows that belong to a city (a ``jurisdiction`` foreign key)."""

    def for_user(self, user):
        """Rows of the cities this staff user serves (none for anyone else)."""
        return in_user_cities(self, user)


class KeptQuerySet(CityQuerySet):
    def delete(self):
        raise RecordKept(self.model)


class Kept(models.Model):
    """A model whose rows are never deleted. ``KEPT_HINT`` says what to do instead."""

    KEPT_HINT = ""

    objects = KeptQuerySet.as_manager()

    class Meta:
        abstract = True

    def delete(self, *args, **kwargs):
        raise RecordKept(type(self))
