from celery import shared_task
from django.utils import timezone

from .services import followup


@shared_task(name="clinics.followup_emails")
def followup_emails(batch_pk: int) -> int:
    """The e-mails of one unlicensed follow-up batch, queued after the
    batch commits. Idempotent: each owner's rows are claimed before the e-mail goes."""
    return followup.followup_emails_send(batch_pk=batch_pk, now=timezone.now())
