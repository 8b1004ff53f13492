from celery import shared_task

from .services.exports import export_build


@shared_task(name="records.build_export")
def build_export(export_pk: int) -> bool:
    """Write a requested export's archive. Idempotent: an export already claimed (by an
    earlier run, or written on the spot from its page) is left as it is."""
    return export_build(export_pk=export_pk) is not None


@shared_task(name="records.run_import")
def run_import(batch_pk: int) -> bool:
    """Run a queued import batch. Idempotent: a batch already claimed
    by another run is left to it."""
    from .services.imports import import_apply

    return import_apply(batch_pk) is not None
