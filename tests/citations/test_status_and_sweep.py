"""Status changes recorded by staff, with history; the outcome sweep flags once."""

from datetime import date

import pytest

from citations.models import CitationStatus
from citations.services.status import citation_status_change
from citations.sweeps import sweep_outcome_overdue, upcoming_appearances
from ordinance.deadlines import registered_sweeps
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.impound.helpers import owned_dog

from .helpers import at, cite

pytestmark = pytest.mark.django_db


def test_status_changes_are_in_the_history_with_their_date_and_who(north_branch, officer, clerk):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    citation_status_change(
        citation=citation,
        status="contested",
        on=date(2026, 6, 16),
        actor=clerk,
        now=at(2026, 6, 16, 9),
    )
    citation_status_change(
        citation=citation,
        status="adjudicated",
        on=date(2026, 6, 28),
        actor=clerk,
        note="Guilty; fine set by the court.",
        now=at(2026, 6, 29, 9),
    )
    citation.refresh_from_db()
    rows = list(citation.history.order_by("history_date", "history_id"))
    assert [r.status for r in rows] == ["issued", "contested", "adjudicated"]
    assert rows[-1].status_changed_on == date(2026, 6, 28)
    assert rows[-1].history_user_id in (None, clerk.pk) and rows[-1].status_changed_by == clerk
    assert rows[-1].status_note == "Guilty; fine set by the court."
    actions = set(Event.objects.for_object(citation).values_list("action", flat=True))
    assert {"citations.citation.issued", "citations.citation.adjudicated"} <= actions


def test_a_status_that_cannot_follow_is_refused(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    citation_status_change(
        citation=citation,
        status="paid",
        on=date(2026, 6, 16),
        actor=officer,
        now=at(2026, 6, 16, 9),
    )
    for status in ("contested", "issued", "adjudicated", "nonsense"):
        with pytest.raises(Refused):
            citation_status_change(
                citation=citation,
                status=status,
                on=date(2026, 6, 17),
                actor=officer,
                now=at(2026, 6, 17, 9),
            )
    with pytest.raises(Refused):  # a date before the citation was issued
        other = cite(north_branch, officer, owned_dog(north_branch))
        citation_status_change(
            citation=other,
            status="paid",
            on=date(2026, 6, 1),
            actor=officer,
            now=at(2026, 6, 17, 9),
        )


def test_the_outcome_sweep_is_registered():
    assert "citations.outcome_overdue" in registered_sweeps()


def test_the_sweep_flags_a_citation_past_its_appearance_once(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch), appear=date(2026, 6, 28))
    on_the_day = sweep_outcome_overdue(now=at(2026, 6, 28, 23, 59))
    first = sweep_outcome_overdue(now=at(2026, 6, 29, 0, 5))
    second = sweep_outcome_overdue(now=at(2026, 6, 29, 6))
    assert (on_the_day.applied, first.applied, second.applied) == (0, 1, 0)
    citation.refresh_from_db()
    assert citation.outcome_overdue_at == at(2026, 6, 29, 0, 5)
    assert citation.status == CitationStatus.ISSUED
    flagged = Event.objects.for_object(citation).filter(action="citations.citation.outcome_overdue")
    assert flagged.count() == 1


def test_after_a_week_down_the_sweep_catches_up_once_and_skips_outcomes(
    north_branch, glencoe, officer
):
    due = [
        cite(north_branch, officer, owned_dog(north_branch), appear=date(2026, 6, 20)),
        cite(glencoe, officer, owned_dog(glencoe), appear=date(2026, 6, 22)),
    ]
    paid = cite(north_branch, officer, owned_dog(north_branch), appear=date(2026, 6, 20))
    citation_status_change(
        citation=paid, status="paid", on=date(2026, 6, 16), actor=officer, now=at(2026, 6, 16, 9)
    )
    later = cite(north_branch, officer, owned_dog(north_branch), appear=date(2026, 7, 20))
    first = sweep_outcome_overdue(now=at(2026, 7, 1, 8))
    again = sweep_outcome_overdue(now=at(2026, 7, 1, 8, 5))
    assert (first.applied, again.applied) == (2, 0)
    for citation in (*due, paid, later):
        citation.refresh_from_db()
    assert all(c.outcome_overdue_at is not None for c in due)
    assert paid.outcome_overdue_at is None and later.outcome_overdue_at is None


def test_the_appearance_date_is_an_upcoming_deadline(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch), appear=date(2026, 6, 19))
    found = list(
        upcoming_appearances(
            jurisdiction_ids=[north_branch.pk], start=date(2026, 6, 15), end=date(2026, 6, 22)
        )
    )
    assert [d.due for d in found] == [date(2026, 6, 19)]
    assert found[0].citation == citation.violation_citation
    assert found[0].url.endswith(f"/citations/{citation.pk}/")
