from celery import shared_task

from . import deadlines


@shared_task(name="deadlines.sweep_all")
def sweep_all() -> list[str]:
    """Beat's periodic task: every app's deadline sweeps, idempotent."""
    return [str(result) for result in deadlines.sweep_all()]
