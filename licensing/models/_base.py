"""Names other apps still import from here, standing on ``kernel.kept``.

Licensing's own models are ``kernel.kept.Kept`` (``RecordKept`` when asked to delete).
The clinics app's models and an old migration of each app (``bases=``) still name
``NoDeleteMixin``; ``IssuedRecordDeletion`` and ``NoDeleteQuerySet`` are the kernel's
exception and queryset under their old names until those callers use the kernel's.
"""

from kernel.kept import KeptQuerySet, RecordKept

IssuedRecordDeletion = RecordKept
NoDeleteQuerySet = KeptQuerySet


class NoDeleteMixin:
    """A model mixin that refuses ``delete()`` with the kernel's ``RecordKept``."""

    def delete(self, *args, **kwargs):
        raise RecordKept(type(self))
