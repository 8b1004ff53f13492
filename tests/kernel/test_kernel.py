"""The case kernel: transitions declared on the model and applied one way; the number
series; records kept; the checks every service makes. Citations stand in as a record
that declares its transitions."""

from datetime import date, timedelta

import pytest
from django.apps import apps
from django.db import transaction
from django.utils import timezone

from citations.models import Citation, CitationStatus
from kernel.checks import refuse_if_before, refuse_if_future, refuse_unless_serves
from kernel.kept import KeptQuerySet, RecordKept
from kernel.models import NumberSeries, StatefulRecord, Transition
from kernel.numbers import allocate, year_number
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.citations.helpers import cite
from tests.impound.helpers import owned_dog

pytestmark = pytest.mark.django_db


def stateful_models():
    return [m for m in apps.get_models() if issubclass(m, StatefulRecord)]


def test_every_stateful_model_declares_transitions_between_its_own_states():
    assert stateful_models(), "no model stands on the kernel"
    for model in stateful_models():
        states = set(model.status_choices())
        assert model.TRANSITIONS, f"{model.__name__} declares no transitions"
        names = [t.name for t in model.TRANSITIONS]
        assert len(names) == len(set(names)), f"{model.__name__}: a name twice"
        for t in model.TRANSITIONS:
            assert t.sources and t.targets and t.event, f"{model.__name__}.{t.name}"
            assert t.sources <= states, f"{model.__name__}.{t.name}: {t.sources - states}"
            assert t.targets <= states, f"{model.__name__}.{t.name}: {t.targets - states}"


def test_every_stateful_model_keeps_its_history_and_its_rows():
    for model in stateful_models():
        assert hasattr(model, "history"), f"{model.__name__} keeps no history"
        assert isinstance(model.objects.all(), KeptQuerySet), model.__name__


def test_apply_moves_saves_and_records_the_event(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    assert citation.next_statuses() == (
        CitationStatus.PAID,
        CitationStatus.CONTESTED,
        CitationStatus.DISMISSED,
        CitationStatus.ADJUDICATED,
    )
    now = timezone.now()
    event = citation.apply("contest", actor=officer, at=now, summary="Contested at the counter")
    citation.refresh_from_db()
    assert (citation.status, citation.status_changed_at) == (CitationStatus.CONTESTED, now)
    assert event.action == "citations.citation.contested"
    assert list(Event.objects.for_object(citation).values_list("action", flat=True))[0] == (
        "citations.citation.contested"
    )
    assert citation.next_statuses() == (CitationStatus.DISMISSED, CitationStatus.ADJUDICATED)
    assert citation.may("dismiss") and not citation.may("pay")


def test_a_transition_from_another_state_is_refused_and_changes_nothing(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    citation.apply("pay", actor=officer)
    events = Event.objects.count()
    with pytest.raises(Refused) as refused:
        citation.apply("contest", actor=officer, field="status")
    assert str(refused.value) == f"{citation} is paid: it cannot become contested."
    assert refused.value.checks[0].field == "status"
    citation.refresh_from_db()
    assert citation.status == CitationStatus.PAID
    assert Event.objects.count() == events


def test_a_role_the_transition_does_not_name_is_refused(north_branch, officer, clerk, monkeypatch):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    only_officers = Transition("pay", "issued", "paid", event="x.paid", roles=("officer",))
    monkeypatch.setattr(Citation, "TRANSITIONS", (only_officers,))
    with pytest.raises(Refused, match="Your role may not"):
        citation.ensure("pay", actor=clerk)
    assert citation.ensure("pay", actor=officer) == "paid"
    assert citation.ensure("pay", actor=None) == "paid"  # a sweep


def test_a_transition_with_several_ends_needs_the_one_named():
    close = Transition("close", "open", ("redeemed", "adopted"), event="x.{to}")
    with pytest.raises(ValueError):
        close.target(None)
    with pytest.raises(ValueError):
        close.target("held")
    assert close.target("adopted") == "adopted"


def test_apply_all_is_one_update_and_skips_rows_in_another_state(
    north_branch, officer, django_assert_max_num_queries
):
    dog = owned_dog(north_branch)
    citations = [cite(north_branch, officer, dog) for _ in range(3)]
    citations[0].apply("pay", actor=officer)
    now = timezone.now()
    # select, update, content type, events, the rows again and their history: set-based
    with django_assert_max_num_queries(8):
        done = Citation.apply_all(Citation.objects.all(), "contest", at=now, summary="sweep")
    assert done == 2
    assert Citation.apply_all(Citation.objects.all(), "contest", at=now) == 0  # twice: nothing
    statuses = dict(Citation.objects.values_list("pk", "status"))
    assert statuses[citations[0].pk] == CitationStatus.PAID
    assert {statuses[c.pk] for c in citations[1:]} == {CitationStatus.CONTESTED}
    assert Event.objects.filter(action="citations.citation.contested").count() == 2
    history = Citation.history.filter(status=CitationStatus.CONTESTED)
    assert sorted(history.values_list("id", flat=True)) == sorted(c.pk for c in citations[1:])
    assert {h.history_change_reason for h in history} == {"sweep"}


def test_numbers_are_one_series_per_city_series_and_year(north_branch, glencoe):
    with transaction.atomic():
        assert [allocate(north_branch, "bite", 2026) for _ in range(3)] == [1, 2, 3]
        assert allocate(north_branch, "bite", 2027) == 1
        assert allocate(glencoe, "bite", 2026) == 1
        assert allocate(north_branch, "receipt") == 1
        assert year_number(north_branch, "quarantine", 2026, "Q") == "Q-2026-0001"
        assert year_number(north_branch, "impound", 2026) == "2026-0001"
    assert (
        NumberSeries.objects.get(jurisdiction=north_branch, series="bite", year=2026).next_number
        == 4
    )


def test_a_rolled_back_insert_returns_its_number(north_branch):
    with pytest.raises(RuntimeError), transaction.atomic():
        allocate(north_branch, "permit", 2026)
        raise RuntimeError
    with transaction.atomic():
        assert allocate(north_branch, "permit", 2026) == 1


def test_kept_records_say_what_they_are(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    with pytest.raises(RecordKept, match="Citations are kept; they are never deleted."):
        Citation.objects.filter(pk=citation.pk).delete()


def test_the_checks_every_service_makes(north_branch, glencoe, officer):
    officer.jurisdictions.set([north_branch])
    refuse_unless_serves(officer, north_branch)
    with pytest.raises(Refused, match="You do not serve City of Glencoe"):
        refuse_unless_serves(officer, glencoe)
    today = date(2026, 6, 15)
    refuse_if_future(today, "Bitten on", today=today)
    with pytest.raises(Refused, match="cannot be in the future") as refused:
        refuse_if_future(today + timedelta(days=1), "Bitten on", field="bitten_on", today=today)
    assert refused.value.checks[0].field == "bitten_on"
    refuse_if_before(today, today, "Reported on", "the bite")
    with pytest.raises(Refused, match="cannot be before the bite"):
        refuse_if_before(today - timedelta(days=1), today, "Reported on", "the bite")


def test_a_step_that_does_not_move_the_record_asks_the_table(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    citation.require("contest", "a hearing request")
    citation.apply("pay", actor=officer)
    with pytest.raises(Refused) as refused:
        citation.require("contest", "a hearing request")
    assert str(refused.value) == f"{citation} is paid: a hearing request is not possible now."


def test_a_moment_later_today_is_in_the_future_too():
    from datetime import datetime
    from zoneinfo import ZoneInfo

    now = datetime(2026, 6, 15, 10, 0, tzinfo=ZoneInfo("America/Chicago"))
    refuse_if_future(now, "Bitten at", now=now)
    with pytest.raises(Refused, match="The bite cannot be in the future.") as refused:
        refuse_if_future(
            now + timedelta(minutes=5),
            "Bitten at",
            message="The bite cannot be in the future.",
            field="bitten_at",
            now=now,
        )
    assert refused.value.checks[0].field == "bitten_at"


def test_applying_a_transition_with_several_ends_needs_the_one_named(
    north_branch, officer, monkeypatch
):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    either = Transition("settle", "issued", ("paid", "dismissed"), event="x.{to}")
    monkeypatch.setattr(Citation, "TRANSITIONS", (either,))
    assert citation.ensure("settle") is None  # the state allows it; the end comes later
    with pytest.raises(ValueError):
        citation.apply("settle", actor=officer)
    citation.refresh_from_db()
    assert citation.status == CitationStatus.ISSUED
    assert citation.apply("settle", actor=officer, to="dismissed").action == "x.dismissed"
