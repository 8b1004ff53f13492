"""Snapshots: what a document stores is JSON, and thaws back to the same values."""

import datetime as dt
import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notices.services import snapshot, thaw
from ordinance.models import Jurisdiction


def test_it_tags_dates_and_money_and_thaws_them_back():
    value = {
        "fee": Decimal("15.00"),
        "on": dt.date(2025, 12, 31),
        "at": dt.datetime(2025, 3, 3, 15, 30, tzinfo=dt.UTC),
        "time": dt.time(17, 0),
        "lines": ({"n": 1},),
        "flag": True,
        "none": None,
    }
    frozen = snapshot(value)
    assert json.loads(json.dumps(frozen)) == frozen
    assert frozen["fee"] == {"$decimal": "15.00"}
    thawed = thaw(frozen)
    assert thawed["fee"] == Decimal("15.00") and str(thawed["fee"]) == "15.00"
    assert thawed["on"] == dt.date(2025, 12, 31)
    assert thawed["at"] == value["at"]
    assert thawed["time"] == dt.time(17, 0)
    assert thawed["lines"] == [{"n": 1}]


def test_snapshot_is_idempotent_so_callers_may_snapshot_first():
    value = {"fee": Decimal("3.00"), "on": dt.date(2025, 1, 2)}
    assert snapshot(snapshot(value)) == snapshot(value)


@pytest.mark.django_db
def test_it_refuses_a_database_row():
    with pytest.raises(TypeError, match="database row"):
        snapshot({"city": Jurisdiction(name="X")})


@pytest.mark.parametrize(
    "bad",
    [
        dt.datetime(2025, 1, 1, 12, 0),
        float("nan"),
        Decimal("Infinity"),
        object(),
        {1, 2},
    ],
)
def test_it_refuses_values_a_document_cannot_store(bad):
    with pytest.raises((TypeError, ValueError)):
        snapshot({"x": bad})


def test_thawed_dicts_iterate_in_sorted_key_order():
    # PostgreSQL jsonb reorders keys; sorting makes every render iterate the same way.
    assert list(thaw({"b": 1, "a": 2, "c": {"z": 1, "y": 2}})) == ["a", "b", "c"]


@given(st.decimals(allow_nan=False, allow_infinity=False, places=2))
def test_any_amount_round_trips_exactly(amount):
    frozen = json.loads(json.dumps(snapshot({"amount": amount})))
    assert thaw(frozen)["amount"] == amount
    assert str(thaw(frozen)["amount"]) == str(amount)
