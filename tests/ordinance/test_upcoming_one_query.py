"""The staff home's deadline list reads every app's rows in one query:
each registered source only describes its querysets (``UpcomingQuery``), and
``base.together.read_together`` reads them all with a single SELECT on PostgreSQL and
SQLite, the rows rebuilt as the model instances a per-table read gives."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.together import Part, read_together
from dangerous_dogs.models import DesignationCase
from impound.models import ImpoundCase
from licensing.models import Animal
from ordinance import deadlines
from tests.dangerous_dogs.helpers import make_case
from tests.licensing.factories import AnimalFactory

pytestmark = pytest.mark.django_db


def test_every_registered_source_only_describes_its_queries(north_branch, glencoe):
    ids = [north_branch.pk, glencoe.pk]
    start = date(2026, 12, 1)
    assert deadlines._upcoming, "no source registered"
    for name, fn in sorted(deadlines._upcoming.items()):
        with CaptureQueriesContext(connection) as queries:
            items = list(fn(jurisdiction_ids=ids, start=start, end=start + timedelta(days=7)))
        assert not queries.captured_queries, f"{name} read rows itself"
        assert items and all(isinstance(i, deadlines.UpcomingQuery) for i in items), name


def test_the_whole_list_is_one_query_with_rows_in_every_city(
    north_branch, glencoe, officer, django_assert_num_queries
):
    # Rows of one source in each city, so the query is not empty by luck.
    make_case(glencoe, officer, status="notice_served", contest_deadline=date(2026, 12, 3))
    make_case(north_branch, officer, status="notice_served", contest_deadline=date(2026, 12, 4))
    assert connection.features.supports_json_field  # SQLite asks once per connection
    with django_assert_num_queries(1):
        found = deadlines.upcoming(
            jurisdiction_ids=[north_branch.pk, glencoe.pk], today=date(2026, 12, 1)
        )
    assert [(d.due, d.jurisdiction) for d in found if d.what == "Contest period ends"] == [
        (date(2026, 12, 3), glencoe.short_name),
        (date(2026, 12, 4), north_branch.short_name),
    ]


def _same(a, b, fields):
    return [[getattr(row, f) for f in fields] for row in a] == [
        [getattr(row, f) for f in fields] for row in b
    ]


def test_one_query_gives_the_rows_a_read_per_table_gives(north_branch, glencoe, officer):
    for n in range(3):
        AnimalFactory(jurisdiction=north_branch if n % 2 else glencoe)
    make_case(glencoe, officer)  # a model of more columns than one JSON object takes
    parts = {
        "animals": Part(Animal.objects.order_by("pk"), related=("owner", "jurisdiction")),
        "cases": Part(DesignationCase.objects.order_by("pk"), related=("animal__owner",)),
        "none": Part(ImpoundCase.objects.all()),
    }
    assert connection.features.supports_json_field
    with CaptureQueriesContext(connection) as queries:
        together = read_together(parts)
    assert len(queries.captured_queries) == 1
    alone = read_together(parts, one_query=False)
    assert together["none"] == alone["none"] == []
    animal_fields = [f.attname for f in Animal._meta.concrete_fields]
    assert _same(together["animals"], alone["animals"], animal_fields)
    assert [a.owner.last_name for a in together["animals"]] == [
        a.owner.last_name for a in alone["animals"]
    ]
    assert [a.jurisdiction.short_name for a in together["animals"]] == [
        a.jurisdiction.short_name for a in alone["animals"]
    ]
    case_fields = [f.attname for f in DesignationCase._meta.concrete_fields]
    assert len(case_fields) > 50
    assert _same(together["cases"], alone["cases"], case_fields)
    assert together["cases"][0].animal.owner.pk == alone["cases"][0].animal.owner.pk
    assert together["cases"][0].occurred_at.tzinfo is not None
