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

from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection, models
from django.db.models import OuterRef

from base.together import from_json, one_query_vendor, row_json
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


class _JSONRows(models.Subquery):
    """SQLite: the subquery's rows, one JSON object each (its column ``row``), as one JSON
    array in the subquery's order (SQLite keeps a subquery's ORDER BY under an aggregate
    instead of flattening it)."""

    template = '(SELECT json_group_array(json(_rows."row")) FROM (%(subquery)s) AS _rows)'
    output_field = models.JSONField()


def read_tables(
    case: DesignationCase, tables: dict[str, Table], *, one_query: bool | None = None
) -> dict[str, list]:
    """Every table's rows for ``case``: one query on PostgreSQL and SQLite, one per table
    elsewhere (``one_query=False`` forces the latter, for the tests that compare the two)."""
    if one_query is None:
        one_query = one_query_vendor()
    if one_query:
        as_array = ArraySubquery if connection.vendor == "postgresql" else _JSONRows
        annotations = {
            f"t_{name}": as_array(
                table.rows(OuterRef)
                .order_by(*table.order)
                .values(row=row_json(table.model, table.related))
            )
            for name, table in tables.items()
        }
        found = DesignationCase.objects.filter(pk=case.pk).values(**annotations).get()
        return {
            name: [from_json(table.model, table.related, data) for data in found[f"t_{name}"]]
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
