"""Registry of every app's sweeps and upcoming-deadline queries.

Each app registers in its ``AppConfig.ready()``; ``ordinance`` imports no app. The beat
task ``deadlines.sweep_all`` runs every registered sweep; staff home pages list what
falls due soon across all apps.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils import timezone

from .sweeps import SweepResult

# The home pages look this far ahead (a screen setting, not an ordinance value).
UPCOMING_HORIZON_DAYS = 7

SweepFn = Callable[..., SweepResult]
UpcomingFn = Callable[..., Iterable["Deadline"]]

_sweeps: dict[str, SweepFn] = {}
_upcoming: dict[str, UpcomingFn] = {}


@dataclass(frozen=True)
class Deadline:
    """One deadline as a person sees it: what falls due, on which case, and what then."""

    due: date
    what: str
    subject: str
    consequence: str
    citation: str
    url: str = ""
    jurisdiction: str = ""


def register_sweep(name: str):
    def decorator(fn: SweepFn) -> SweepFn:
        _sweeps[name] = fn
        return fn

    return decorator


def register_upcoming(name: str):
    def decorator(fn: UpcomingFn) -> UpcomingFn:
        _upcoming[name] = fn
        return fn

    return decorator


def registered_sweeps() -> dict[str, SweepFn]:
    return dict(_sweeps)


def sweep_all(*, now: datetime | None = None, dry_run: bool = False) -> list[SweepResult]:
    """Run every app's sweep once, with one reading of the clock."""
    now = now or timezone.now()
    return [fn(now=now, dry_run=dry_run) for _, fn in sorted(_sweeps.items())]


def upcoming(
    *, jurisdiction_ids: Iterable[int], today: date | None = None, days: int | None = None
) -> list[Deadline]:
    """Deadlines from today through ``days`` ahead in these jurisdictions, soonest first."""
    today = today or timezone.localdate()
    until = today + timedelta(days=UPCOMING_HORIZON_DAYS if days is None else days)
    ids = list(jurisdiction_ids)
    found: list[Deadline] = []
    for _, fn in sorted(_upcoming.items()):
        found.extend(fn(jurisdiction_ids=ids, start=today, end=until))
    return sorted(found, key=lambda d: (d.due, d.what, d.subject))
