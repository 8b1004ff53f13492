"""Freeze a document's data as JSON, and thaw it back for the template.

A document is rendered from its snapshot, never from live rows (style.md, "Documents
freeze their data first, render second"), so re-rendering it years later prints the
same thing. Dates, times and money are stored as tagged strings (``{"$date": "2025-01-31"}``)
so that ``thaw`` gives the template real ``date`` and ``Decimal`` objects back and the
usual filters (``|date``, ``|floatformat``) work the same on the first render and on a
re-render.
"""

import datetime as dt
import json
from decimal import Decimal
from uuid import UUID

from django.db.models import Model
from django.utils import timezone
from django.utils.functional import Promise

_TAGS = {
    "$datetime": dt.datetime.fromisoformat,
    "$date": dt.date.fromisoformat,
    "$time": dt.time.fromisoformat,
    "$decimal": Decimal,
}


def snapshot(value):
    """A JSON-serialisable copy of ``value``; dates, times and Decimals are tagged.

    Model instances are refused: a document stores the fields it prints, as they were.
    """
    if value is None or isinstance(value, bool | int | str):
        return str(value) if isinstance(value, str) else value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("A document cannot store NaN or infinity.")
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError("A document cannot store a non-finite amount.")
        return {"$decimal": str(value)}
    if isinstance(value, dt.datetime):
        if timezone.is_naive(value):
            raise ValueError(f"Naive datetime {value!r}: pass an aware datetime.")
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, dt.time):
        return {"$time": value.isoformat()}
    if isinstance(value, UUID | Promise):
        return str(value)
    if isinstance(value, dict):
        return {str(k): snapshot(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [snapshot(v) for v in value]
    if isinstance(value, Model):
        raise TypeError(
            f"{type(value).__name__} is a database row: snapshot the fields the document "
            "prints (a dict), not the row."
        )
    raise TypeError(f"Cannot store {type(value).__name__} in a document snapshot.")


def is_serialisable(value) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def thaw(value):
    """The snapshot with its tagged values turned back into Python objects.

    Dict keys come back sorted: PostgreSQL's jsonb does not keep key order, so a
    template that loops over a dict prints it in the same order on every render. A
    document whose order matters passes a list.
    """
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, raw),) = value.items()
            if key in _TAGS and isinstance(raw, str):
                return _TAGS[key](raw)
        return {k: thaw(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [thaw(v) for v in value]
    return value
