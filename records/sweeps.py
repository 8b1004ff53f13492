"""The retention sweep: a ready export's archive is removed once its
``expires_at`` has come (``DATA_EXPORT_RETENTION_HOURS`` after it was written). It selects
on ``expires_at <= now`` and the ready status, so a second run removes nothing and a run
after downtime catches up (ordinance.sweeps)."""

from datetime import datetime

from ordinance.deadlines import register_sweep
from ordinance.sweeps import run_sweep

from .models import DataExport
from .services.exports import export_remove_file


@register_sweep("records.exports_expire")
def sweep_exports_expire(*, now: datetime, dry_run: bool = False):
    def transition(export, at):
        export_remove_file(export, at)

    return run_sweep(
        name="data export archives past their retention period",
        action="records.export.expired",
        due=DataExport.objects.filter(
            status__in=DataExport.transition("expire").sources, expires_at__lte=now
        ),
        still_applies=lambda e: e.may("expire") and e.expires_at <= now,
        transition=transition,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )
