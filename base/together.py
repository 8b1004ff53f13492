"""Several querysets read in one database round trip, rows rebuilt as model instances.

A page that shows rows of many tables (a case's sections, the staff home's deadlines of
every app) would spend a query per table and go over its budget of ten (style.md). Here
each queryset's rows become one JSON object each (``JSONObject`` of the model's columns,
plus one object per related row named in ``related``), each queryset an array of them,
and all the arrays come back as the columns of a single SELECT. The rows are rebuilt as
model instances, the related rows attached as if by ``select_related``, and any
annotations named in ``extra`` set as attributes (their JSON values as they come).

PostgreSQL builds each array with ``ARRAY(subquery)`` (keeping the subquery's order);
SQLite (the embedded default) with ``json_group_array`` over the ordered subquery.
Another database reads one query per queryset, the same answer.

    rows = read_together({
        "holds": Part(ImpoundCase.objects.filter(...), related=("jurisdiction",)),
        "appearances": Part(Citation.objects.filter(...), related=("jurisdiction",)),
    })                       # {"holds": [ImpoundCase, ...], "appearances": [...]}

Where it pays, and only there: the staff home's list of upcoming deadlines, which asks
every app's registered sources (a dozen tables) and would otherwise cost a query per app
whatever the page's budget of ten (tests/ordinance/test_upcoming_one_query.py); and a
premises' register of permits, exemptions and kennel licenses (four tables) on the owner
and premises pages. Everything else reads with the ORM, plainly.
"""

import json
from dataclasses import dataclass
from datetime import UTC

from django.conf import settings
from django.db import connection, models
from django.db.models import F
from django.db.models.functions import JSONObject
from django.utils import timezone

ROOT = "_"


@dataclass(frozen=True)
class Part:
    """One queryset to read: its rows, the relation paths ("jurisdiction",
    "case__owner") to attach as by ``select_related``, and annotation names to keep."""

    queryset: models.QuerySet
    related: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    # The queryset already selects one JSON column named "row" (an aggregate, say): its
    # rows come back as dicts, as the JSON has them (dates as ISO strings).
    rows: bool = False


def one_query_vendor() -> bool:
    return connection.vendor in ("postgresql", "sqlite")


def related_models(model, paths) -> dict[str, type[models.Model]]:
    """Each relation path's model: {"case__owner": Owner, "case": ImpoundCase}."""
    found = {}
    for path in paths:
        current = model
        steps = path.split("__")
        for depth, name in enumerate(steps):
            current = current._meta.get_field(name).related_model
            found["__".join(steps[: depth + 1])] = current
    return found


# PostgreSQL's jsonb_build_object takes at most 100 arguments (50 pairs): each related row
# is an object of its own, and a model with more columns is split into chunks "~0", "~1".
MAX_PAIRS = 50


def json_object(model, prefix: str = "") -> JSONObject:
    """One row as a JSON object."""
    pairs = {f.attname: F(prefix + f.attname) for f in model._meta.concrete_fields}
    if len(pairs) <= MAX_PAIRS:
        return JSONObject(**pairs)
    names = list(pairs)
    return JSONObject(
        **{
            f"~{n}": JSONObject(**{name: pairs[name] for name in names[at : at + MAX_PAIRS]})
            for n, at in enumerate(range(0, len(names), MAX_PAIRS))
        }
    )


def row_json(model, related: dict[str, type[models.Model]], extra=()) -> JSONObject:
    parts = {ROOT: json_object(model)}
    for path, related_model in related.items():
        parts[path] = json_object(related_model, f"{path}__")
    if extra:
        parts["+"] = JSONObject(**{name: F(name) for name in extra})
    return JSONObject(**parts)


def _flat(data: dict | None) -> dict | None:
    if data and "~0" in data:
        return {name: value for chunk in data.values() for name, value in chunk.items()}
    return data


def build(model, data: dict):
    data = _flat(data)
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


def from_json(model, related: dict[str, type[models.Model]], data: dict):
    row = build(model, data[ROOT])
    # Shortest paths first, so "hearing" exists before "hearing__notice" hangs on it.
    for path in sorted(related, key=lambda p: p.count("__")):
        *parents, name = path.split("__")
        holder = row
        for parent in parents:
            holder = getattr(holder, parent, None)
            if holder is None:
                break
        if holder is None:
            continue
        found = _flat(data[path])
        setattr(holder, name, build(related[path], found) if found and found.get("id") else None)
    for name, value in (data.get("+") or {}).items():
        setattr(row, name, value)
    return row


def _array_sql(inner: str) -> str:
    if connection.vendor == "postgresql":
        return f'(SELECT array_to_json(ARRAY(SELECT _r."row" FROM ({inner}) AS _r))::text)'
    return f'(SELECT json_group_array(json(_r."row")) FROM ({inner}) AS _r)'


def read_together(parts: dict[str, Part], *, one_query: bool | None = None) -> dict[str, list]:
    """Every part's rows: one query on PostgreSQL and SQLite, one per part elsewhere
    (``one_query=False`` forces the latter, for tests that compare the two)."""
    if not parts:
        return {}
    if one_query is None:
        one_query = one_query_vendor()
    if not one_query:
        return {
            name: list(part.queryset.select_related(*part.related))
            if part.related
            else list(part.queryset)
            for name, part in parts.items()
        }
    names = list(parts)
    shapes = {}
    columns, params = [], []
    for name in names:
        part = parts[name]
        model = part.queryset.model
        related = related_models(model, part.related)
        shapes[name] = (model, related, part.rows)
        inner = (
            part.queryset
            if part.rows
            else part.queryset.values(row=row_json(model, related, part.extra))
        )
        sql, inner_params = inner.query.sql_with_params()
        columns.append(_array_sql(sql))
        params.extend(inner_params)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(columns), params)
        found = cursor.fetchone()
    result = {}
    for name, raw in zip(names, found, strict=True):
        model, related, as_dicts = shapes[name]
        rows = json.loads(raw) if isinstance(raw, str) else (raw or [])
        rows = [json.loads(data) if isinstance(data, str) else data for data in rows]
        result[name] = rows if as_dicts else [from_json(model, related, data) for data in rows]
    return result


def _read_alone(part: Part) -> list:
    if part.rows:
        return [
            json.loads(row) if isinstance(row, str) else row
            for row in part.queryset.values_list("row", flat=True)
        ]
    queryset = part.queryset.select_related(*part.related) if part.related else part.queryset
    return list(queryset)
