from ordinance.models import Jurisdiction

from .models import DataExport


def exports_for(user):
    """Exports this administrator may see: only those whose every city they serve (an
    export that covers another city holds that city's data too)."""
    others = Jurisdiction.objects.exclude(pk__in=user.jurisdiction_ids)
    return (
        DataExport.objects.filter(jurisdictions__in=user.jurisdiction_ids)
        .exclude(jurisdictions__in=others)
        .distinct()
    )


def import_batches_for(user):
    """Import batches of the cities this administrator serves (others: 404)."""
    from .models import ImportBatch

    return ImportBatch.objects.for_user(user)
