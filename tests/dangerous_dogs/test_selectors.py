"""The case page's reads (dangerous_dogs.selectors): one query on PostgreSQL and one per
table elsewhere (SQLite, the embedded default of `make run`) give the same rows."""

from datetime import date

import pytest

from dangerous_dogs.models import Appeal, CaseStatus, ComplianceProof
from dangerous_dogs.selectors import read_tables
from dangerous_dogs.views.compliance import PART_C_TABLES
from dangerous_dogs.views.hearing import PART_B_TABLES
from dangerous_dogs.views.owner import PART_D_TABLES
from notices.models import Decision, DecisionOutcome

from .hearing_helpers import scheduled
from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


def _shape(tables):
    return {
        name: [
            (
                type(row).__name__,
                row.pk,
                *(getattr(row, f.attname) for f in row._meta.concrete_fields),
            )
            for row in rows
        ]
        for name, rows in tables.items()
        if name != "hearings"
    }


def test_both_ways_of_reading_give_the_same_rows(glencoe, officer):
    hearing = scheduled(glencoe, officer, today=TODAY)
    case = hearing.case
    decision = Decision.objects.create(
        jurisdiction=glencoe,
        subject=case,
        kind="dd_council_appeal",
        outcome=DecisionOutcome.UPHELD,
        decided_by_name="City Council",
        decided_by_capacity="City Council",
        decided_on=TODAY,
        reasons="The panel's findings stand.",
        citation="Glencoe 701 Subd. 15(H)",
        recorded_by=officer,
    )
    Appeal.objects.create(
        case=case,
        filed_on=TODAY,
        deadline=TODAY,
        grounds="Provoked",
        decision=decision,
        recorded_by=officer,
    )
    declared_case = declared(glencoe, officer, on=TODAY, received_on=TODAY)
    ComplianceProof.objects.create(
        case=declared_case,
        requirement="microchip",
        microchip="985112003456789",
        verified_on=TODAY,
        verified_by=officer,
    )
    for subject, tables in ((case, PART_B_TABLES), (declared_case, PART_C_TABLES)):
        per_table = read_tables(subject, tables, one_query=False)
        assert any(per_table.values())
        # One query on PostgreSQL (JSON arrays) and on SQLite (json_group_array).
        assert _shape(read_tables(subject, tables, one_query=True)) == _shape(per_table)
    appeal = read_tables(case, PART_B_TABLES, one_query=False)["appeals"][0]
    assert appeal.decision.reasons == "The panel's findings stand."
    assert read_tables(declared_case, PART_D_TABLES, one_query=False)["reports"] == []
    assert CaseStatus.HEARING == case.status
