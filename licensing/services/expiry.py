"""The December 31 expiry of dog and kennel licenses (LIC-07, KEN-05), set-based.

A license's expiry is the date stored on it (``expires_on``); on the first day after that
date it is expired. The sweep is ONE conditional UPDATE per model (architecture.md: "The
December 31 expiry is a set-based update, not a loop over rows"), so a million licenses
expire in seconds and a second run, or a second beat, finds nothing left to do.

simple-history's signals do not see a bulk update, so the history rows are written in
bulk too: on PostgreSQL the UPDATE and the history INSERT ... SELECT are one statement
(a data-modifying CTE: ``WITH expired AS (UPDATE ... RETURNING *) INSERT ... SELECT FROM
expired``), so the history holds exactly the rows the UPDATE changed. SQLite has no
data-modifying CTEs; there the INSERT ... SELECT runs first (taking SQLite's single write
lock) and the UPDATE with the same condition second, in one transaction.

This is each model's ``expire`` transition (``License.TRANSITIONS``, ``KennelLicense``'s),
applied set-based: its states and event come from the model's table, as every other
status change's do through ``apply``. Unlike ``StatefulRecord.apply_all`` it writes the
history rows in the same statement and one summary Event per city with the count, not
one per license (REC-18): a million licenses expire on one night.
"""

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime

from django.db import connection, models, transaction
from django.utils import timezone

from kernel.models import StatefulRecord, Transition
from licensing.models import KennelLicense, License
from ordinance.models import Event, Jurisdiction
from ordinance.sweeps import SweepResult

CHANGE_REASON = "expired (automatic)"


@dataclass
class ExpirySpec:
    """What expiring means for one model: its ``expire`` transition (from which states,
    to which, the event: the model's ``TRANSITIONS``) and the columns it sets besides."""

    model: type[StatefulRecord]
    noun: str
    # column -> callable(today, now) for the columns the transition sets beside the status
    extra: dict = field(default_factory=dict)

    @property
    def table(self) -> str:
        return self.model._meta.db_table

    @property
    def expire(self) -> Transition:
        return self.model.transition("expire")

    @property
    def to_status(self) -> str:
        return self.expire.target(None)

    @property
    def action(self) -> str:
        return self.expire.event.format(to=self.to_status)


CHANGED_AT = {"status_changed_at": lambda today, now: now}
LICENSES = ExpirySpec(
    model=License,
    noun="dog licenses",
    extra={
        **CHANGED_AT,
        "status_changed_on": lambda today, now: today,
        "status_reason": lambda today, now: CHANGE_REASON,
    },
)
KENNELS = ExpirySpec(model=KennelLicense, noun="kennel licenses", extra=CHANGED_AT)


def due_for_expiry(spec: ExpirySpec, today: date) -> models.QuerySet:
    """Rows still active whose stored expiry date has passed (NULL expiry never expires)."""
    return spec.model.objects.filter(
        status__in=spec.expire.sources, expires_on__isnull=False, expires_on__lt=today
    )


def licenses_expire(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """Expire dog licenses past their ``expires_on`` (NB Sec. 6-62; rules.md LIC-07)."""
    return _expire(LICENSES, now=now, dry_run=dry_run)


def kennel_licenses_expire(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """Expire kennel licenses past their ``expires_on`` (NB Sec. 6-65(b); KEN-05).

    A Glencoe kennel license has no ``expires_on`` (701 Subd. 4 sets no term) and is
    never touched here.
    """
    return _expire(KENNELS, now=now, dry_run=dry_run)


def _expire(spec: ExpirySpec, *, now: datetime, dry_run: bool) -> SweepResult:
    today = timezone.localdate(now)
    name = f"{spec.noun} expire"
    if dry_run:
        counts = _counts_due(spec, today)
        total = sum(counts.values())
        return SweepResult(name=name, due=total, applied=total, dry_run=True)
    with transaction.atomic():
        _serialise_with_other_beats(spec)
        if connection.vendor == "postgresql":
            counts = _expire_postgresql(spec, today=today, now=now)
        else:
            counts = _expire_sequential(spec, today=today, now=now)
        _record_summary_events(spec, counts, today=today, now=now)
    total = sum(counts.values())
    return SweepResult(name=name, due=total, applied=total)


def _counts_due(spec: ExpirySpec, today: date) -> Counter:
    rows = (
        due_for_expiry(spec, today)
        .order_by()
        .values("jurisdiction_id")
        .annotate(n=models.Count("pk"))
        .values_list("jurisdiction_id", "n")
    )
    return Counter(dict(rows))


def _serialise_with_other_beats(spec: ExpirySpec) -> None:
    """Two beats at once: the second waits here, then finds the rows already expired.

    A transaction-scoped advisory lock, keyed on the table, released at commit.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [spec.table])


def _history_columns(spec: ExpirySpec, *, today: date, now: datetime, source: str):
    """(insert columns, select expressions, params) for the historical model's fields."""
    ops = connection.ops
    qn = connection.ops.quote_name
    overrides = {
        "status": ("%s", spec.to_status),
        "history_date": ("%s", ops.adapt_datetimefield_value(now)),
        "history_type": ("%s", "~"),
        "history_change_reason": ("%s", CHANGE_REASON),
        "history_user_id": ("NULL", None),
    }
    for column, value in _extra_values(spec, today, now):
        overrides[column] = ("%s", value)
    columns, selects, params = [], [], []
    for f in spec.model.history.model._meta.concrete_fields:
        if f.primary_key:  # history_id: the historical table's own serial key
            continue
        columns.append(qn(f.column))
        if f.column in overrides:
            sql, value = overrides[f.column]
            selects.append(sql)
            if sql == "%s":
                params.append(value)
        else:
            selects.append(f"{source}.{qn(f.column)}")
    return columns, selects, params


def _extra_values(spec: ExpirySpec, today: date, now: datetime):
    """(column, database value) of the columns the transition sets beside the status."""
    ops = connection.ops
    for column, value in spec.extra.items():
        value = value(today, now)
        if isinstance(value, datetime):
            value = ops.adapt_datetimefield_value(value)
        elif isinstance(value, date):
            value = ops.adapt_datefield_value(value)
        yield column, value


def _set_clause(spec: ExpirySpec, today: date, now: datetime):
    qn = connection.ops.quote_name
    sets, params = [f"{qn('status')} = %s"], [spec.to_status]
    for column, value in _extra_values(spec, today, now):
        sets.append(f"{qn(column)} = %s")
        params.append(value)
    return ", ".join(sets), params


def _where_clause(spec: ExpirySpec, today: date):
    qn = connection.ops.quote_name
    sources = sorted(spec.expire.sources)
    placeholders = ", ".join(["%s"] * len(sources))
    sql = (
        f"{qn('status')} IN ({placeholders}) AND {qn('expires_on')} IS NOT NULL "
        f"AND {qn('expires_on')} < %s"
    )
    return sql, [*sources, connection.ops.adapt_datefield_value(today)]


def _expire_postgresql(spec: ExpirySpec, *, today: date, now: datetime) -> Counter:
    """One statement: the UPDATE, the history rows of exactly those rows, and the counts."""
    qn = connection.ops.quote_name
    history_table = qn(spec.model.history.model._meta.db_table)
    set_sql, set_params = _set_clause(spec, today, now)
    where_sql, where_params = _where_clause(spec, today)
    columns, selects, hist_params = _history_columns(spec, today=today, now=now, source="expired")
    sql = (
        f"WITH expired AS (UPDATE {qn(spec.table)} SET {set_sql} WHERE {where_sql} "
        f"RETURNING *), "
        f"history AS (INSERT INTO {history_table} ({', '.join(columns)}) "
        f"SELECT {', '.join(selects)} FROM expired) "
        f"SELECT jurisdiction_id, count(*) FROM expired GROUP BY jurisdiction_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*set_params, *where_params, *hist_params])
        return Counter(dict(cursor.fetchall()))


def _expire_sequential(spec: ExpirySpec, *, today: date, now: datetime) -> Counter:
    """SQLite: history INSERT ... SELECT (takes the write lock), then the same-WHERE UPDATE."""
    qn = connection.ops.quote_name
    history_table = qn(spec.model.history.model._meta.db_table)
    where_sql, where_params = _where_clause(spec, today)
    columns, selects, hist_params = _history_columns(spec, today=today, now=now, source="src")
    set_sql, set_params = _set_clause(spec, today, now)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {history_table} ({', '.join(columns)}) "
            f"SELECT {', '.join(selects)} FROM {qn(spec.table)} AS src WHERE {where_sql}",
            [*hist_params, *where_params],
        )
        counts = _counts_due(spec, today)
        cursor.execute(
            f"UPDATE {qn(spec.table)} SET {set_sql} WHERE {where_sql}", [*set_params, *where_params]
        )
    return counts


def _record_summary_events(spec: ExpirySpec, counts: Counter, *, today: date, now: datetime):
    """One Event per jurisdiction with the count, not one per license."""
    for jurisdiction_id, count in sorted(counts.items()):
        if count:
            Event.record(
                spec.action,
                jurisdiction=Jurisdiction(pk=jurisdiction_id),
                at=now,
                summary=f"{count} {spec.noun} expired (automatic)",
                data={"count": count, "expired_before": today.isoformat()},
            )
