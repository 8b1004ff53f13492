"""Reading a case's records for its page: several tables in one query.

The case page is filled by a dozen sections (base.sections), each showing records of its
own stage: hearings and seats, appeals, proofs, registrations, the owner's reports. One
query per table would put the page over its budget of ten (style.md), so each part of
the page reads all its tables at once: on PostgreSQL every table is a JSON array
subquery of a single SELECT on the case (``ArraySubquery`` of ``JSONObject`` rows), and
the rows are rebuilt as model instances, with the related rows each names (``related``)
attached as if by ``select_related``. SQLite (the embedded default) does the same with
``json_group_array`` over the ordered rows; another database reads one query per table,
the same answer.

    tables = {
        "appeals": Table(Appeal, lambda ref: Appeal.objects.filter(case=ref("pk")),
                         order=("filed_on", "pk"), related={"decision": Decision}),
    }
    rows = read_tables(case, tables)   # {"appeals": [Appeal, ...]}
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection, models
from django.db.models import F, OuterRef
from django.db.models.functions import JSONObject
from django.utils import timezone

from dangerous_dogs.models import DesignationCase


@dataclass(frozen=True)
class Table:
    """Rows of ``model`` for a case: ``rows(ref)`` filters them, ``ref("pk")`` (or any
    field of the case) standing for the case's value; ``related`` maps a relation path
    ("decision", "hearing__notice") to its model."""

    model: type[models.Model]
    rows: Callable[[object], models.QuerySet]
    order: tuple[str, ...] = ("pk",)
    related: dict[str, type[models.Model]] = field(default_factory=dict)


ROOT = "_"


class _JSONRows(models.Subquery):
    """SQLite: the subquery's rows, one JSON object each (its column ``row``), as one JSON
    array in the subquery's order (SQLite keeps a subquery's ORDER BY under an aggregate
    instead of flattening it)."""

    template = '(SELECT json_group_array(json(_rows."row")) FROM (%(subquery)s) AS _rows)'
    output_field = models.JSONField()


def _one_query_vendor() -> bool:
    return connection.vendor in ("postgresql", "sqlite")


def _object(model, prefix: str = "") -> JSONObject:
    """One row as a JSON object (PostgreSQL takes at most 50 pairs per object, so each
    related row is an object of its own)."""
    return JSONObject(**{f.attname: F(prefix + f.attname) for f in model._meta.concrete_fields})


def _row_json(table: Table) -> JSONObject:
    parts = {ROOT: _object(table.model)}
    for path, model in table.related.items():
        parts[path] = _object(model, f"{path}__")
    return JSONObject(**parts)


def _build(model, data: dict):
    values = {}
    sqlite = connection.vendor == "sqlite"
    for f in model._meta.concrete_fields:
        raw = data[f.attname]
        if isinstance(f, models.JSONField) and isinstance(raw, str) and sqlite:
            raw = json.loads(raw)  # SQLite's json_object() embeds a JSON column as text
        value = f.to_python(raw) if raw is not None else None
        if (
            settings.USE_TZ
            and isinstance(f, models.DateTimeField)
            and value is not None
            and timezone.is_naive(value)
        ):  # SQLite keeps UTC without an offset; PostgreSQL's JSON carries one
            value = timezone.make_aware(value, UTC)
        values[f.attname] = value
    return model(**values)


def _from_json(table: Table, data: dict):
    row = _build(table.model, data[ROOT])
    # Shortest paths first, so "hearing" exists before "hearing__notice" hangs on it.
    for path in sorted(table.related, key=lambda p: p.count("__")):
        *parents, name = path.split("__")
        holder = row
        for parent in parents:
            holder = getattr(holder, parent, None)
            if holder is None:
                break
        if holder is None:
            continue
        found = data[path]
        model = table.related[path]
        setattr(holder, name, _build(model, found) if found and found.get("id") else None)
    return row


def read_tables(
    case: DesignationCase, tables: dict[str, Table], *, one_query: bool | None = None
) -> dict[str, list]:
    """Every table's rows for ``case``: one query on PostgreSQL and SQLite, one per table
    elsewhere (``one_query=False`` forces the latter, for the tests that compare the two)."""
    if one_query is None:
        one_query = _one_query_vendor()
    if one_query:
        as_array = ArraySubquery if connection.vendor == "postgresql" else _JSONRows
        annotations = {
            f"t_{name}": as_array(
                table.rows(OuterRef).order_by(*table.order).values(row=_row_json(table))
            )
            for name, table in tables.items()
        }
        found = DesignationCase.objects.filter(pk=case.pk).values(**annotations).get()
        return {
            name: [_from_json(table, data) for data in found[f"t_{name}"]]
            for name, table in tables.items()
        }
    return {
        name: list(
            table.rows(lambda field: getattr(case, field))
            .select_related(*table.related)
            .order_by(*table.order)
        )
        for name, table in tables.items()
    }


def case_decisions(*kinds: str) -> Callable[[object], models.QuerySet]:
    """The ``notices.Decision`` rows of a case (a generic relation), of these kinds."""
    from django.contrib.contenttypes.models import ContentType

    from notices.models import Decision

    def rows(ref):
        return Decision.objects.filter(
            subject_type=ContentType.objects.get_for_model(DesignationCase),
            subject_id=ref("pk"),
            kind__in=kinds,
        )

    return rows
