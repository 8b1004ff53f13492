from celery import shared_task

from .services import owner_alerts


@shared_task(name="impound.owner_alert")
def owner_alert(case_pk: int) -> int:
    """E-mail (and text, where the city turned texts on) the owner of an impounded animal
    after the intake or identification commits. Idempotent: what went
    once is not sent again."""
    return len(owner_alerts.owner_alerts_send(case_pk=case_pk))
