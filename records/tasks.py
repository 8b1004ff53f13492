from celery import shared_task

from .services.exports import export_build


@shared_task(name="records.build_export")
def build_export(export_pk: int) -> bool:
    """Write a requested export's archive. Idempotent: an export already claimed (by an
    earlier run, or written on the spot from its page) is left as it is."""
    return export_build(export_pk=export_pk) is not None
