"""Registry of every app's sweeps and upcoming-deadline queries.

Each app registers in its ``AppConfig.ready()``; ``ordinance`` imports no app. The beat
task ``deadlines.sweep_all`` runs every registered sweep; staff home pages list what
falls due soon across all apps.

An upcoming source yields ``UpcomingQuery`` items (querysets, and how their rows become
deadlines) rather than reading rows itself, so the home page reads every app's rows in
one query whatever the number of apps (``base.together``); called directly, a source
gives its deadlines as a list. A source may still yield ``Deadline`` objects it read
itself; those cost a query of their own.
"""

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.core.cache import cache as django_cache
from django.utils import timezone
from django.utils.translation import get_language

from base.together import Part, read_together

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


@dataclass(frozen=True)
class UpcomingQuery:
    """Rows to read (named parts) and the function that turns them into deadlines."""

    parts: dict[str, Part]
    deadlines: Callable[[dict[str, list]], Iterable[Deadline]] = field(compare=False)


def resolve_upcoming(items: Iterable, *, one_query: bool | None = None) -> list[Deadline]:
    """Deadlines from a mix of ``Deadline`` and ``UpcomingQuery`` items, every query's
    parts read together."""
    items = list(items)
    parts = {}
    for n, item in enumerate(items):
        if isinstance(item, UpcomingQuery):
            parts.update({f"{n}:{name}": part for name, part in item.parts.items()})
    rows = read_together(parts, one_query=one_query)
    found: list[Deadline] = []
    for n, item in enumerate(items):
        if isinstance(item, UpcomingQuery):
            found.extend(item.deadlines({name: rows[f"{n}:{name}"] for name in item.parts}))
        else:
            found.append(item)
    return found


def register_sweep(name: str):
    def decorator(fn: SweepFn) -> SweepFn:
        _sweeps[name] = fn
        return fn

    return decorator


def register_upcoming(name: str):
    """Register a source; the function returned gives its deadlines when called."""

    def decorator(fn: UpcomingFn) -> UpcomingFn:
        _upcoming[name] = fn

        @functools.wraps(fn)
        def deadlines(**kwargs) -> list[Deadline]:
            return resolve_upcoming(fn(**kwargs))

        return deadlines

    return decorator


def registered_sweeps() -> dict[str, SweepFn]:
    return dict(_sweeps)


def sweep_all(*, now: datetime | None = None, dry_run: bool = False) -> list[SweepResult]:
    """Run every app's sweep once, with one reading of the clock."""
    now = now or timezone.now()
    results = [fn(now=now, dry_run=dry_run) for _, fn in sorted(_sweeps.items())]
    records_changed()  # a sweep writes in bulk, which sends no post_save
    return results


# The staff home page's list asks every app (a query or two each): it is kept in Django's
# cache for UPCOMING_CACHE_SECONDS under a version that any saved or deleted row, and
# every sweep run, moves on (``records_changed``, connected in apps.py), so the list a
# clerk sees after recording something is read afresh. A page read by
# someone else while the write was not yet committed may keep the old list for at most
# those seconds.
UPCOMING_CACHE_SECONDS = 60
_UPCOMING_VERSION_KEY = "ordinance:upcoming-version"


def records_changed(**_signal) -> None:
    for _attempt in (1, 2):
        try:
            django_cache.incr(_UPCOMING_VERSION_KEY)
            return
        except ValueError:  # not set yet, or evicted
            django_cache.add(_UPCOMING_VERSION_KEY, 1, timeout=None)


def upcoming_cached(*, jurisdiction_ids: Iterable[int], today: date) -> list[Deadline]:
    """``upcoming`` for the home page, from the cache while no record has changed."""
    version = django_cache.get_or_set(_UPCOMING_VERSION_KEY, 1, timeout=None)
    ids = ",".join(str(pk) for pk in sorted(jurisdiction_ids))
    key = f"ordinance:upcoming:{ids}:{today.isoformat()}:{get_language()}:{version}"
    found = django_cache.get(key)
    if found is None:
        found = upcoming(jurisdiction_ids=jurisdiction_ids, today=today)
        django_cache.set(key, found, timeout=UPCOMING_CACHE_SECONDS)
    return found


def upcoming(
    *, jurisdiction_ids: Iterable[int], today: date | None = None, days: int | None = None
) -> list[Deadline]:
    """Deadlines from today through ``days`` ahead in these jurisdictions, soonest first."""
    today = today or timezone.localdate()
    until = today + timedelta(days=UPCOMING_HORIZON_DAYS if days is None else days)
    ids = list(jurisdiction_ids)
    items = []
    for _, fn in sorted(_upcoming.items()):
        items.extend(fn(jurisdiction_ids=ids, start=today, end=until))
    return sorted(resolve_upcoming(items), key=lambda d: (d.due, d.what, d.subject))
