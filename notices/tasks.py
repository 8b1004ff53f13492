from celery import shared_task

from . import services


@shared_task(name="notices.render_documents")
def render_documents(pks: list[int]) -> list[int]:
    """The worker's half of a counter issue: lay out the documents issued with their
    rendering deferred (license certificate, 80 mm slip). Idempotent: a document already
    archived, by an earlier run or by its first print, is left as it is."""
    return services.documents_render_pending(pks)
