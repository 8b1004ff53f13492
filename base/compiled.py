"""SQL built once per process for a query whose shape never changes.

Some sections of the registry pages are one UNION of several annotated querysets (the
case file of complaints, the bite and quarantine list of rabies). Building those
querysets and compiling them to SQL costs several times what the database takes to
answer them, and their SQL is the same for every animal: only the keys differ. So such a
query is compiled once per process and shape, with stand-in keys, and then run with the
real ones:

    ANIMAL_RECORDS = CompiledOnce(lambda animal: ...a queryset filtered by animal...)
    rows = ANIMAL_RECORDS.rows(animal=animal)

Each keyword is a saved record or a tuple of keys (the user's cities; an empty tuple
matches nothing, so there are no rows and no query); the shape is the
record's model and the tuple's length, plus ``CompiledOnce(..., version=...)`` for what
else changes the SQL (registered sources). Rows come back as the queryset's own
``values_list`` would give them, through its compiler's converters.

A builder may use a record only as a filter value (``animal=animal``, ``animal_id=
animal.pk``). The stand-in record has only its key: reading another of its fields asks
the database for a row that does not exist, and compiling refuses with
ImproperlyConfigured instead of baking a wrong value into SQL used for every record.

A query whose SQL depends on more than keys (the search box: how many words, which kinds
of key a number could be) passes ``Fill(shape, **values)``: the shape is part of the
plan's key and the builder reads it as it is; each value it may use only as a parameter,
``fill["word"]`` (a ``Value``), never transformed in Python (escape or case it before).

Where it pays, and only there (measured with ``make bench-web``; tests/bench/README.md):
the complaints case file's UNION of seven querysets (owner, premises and animal pages:
6.5 ms a call built afresh, 1.0 ms compiled once, of which the database takes 0.9), the
rabies records' UNION on the animal page, and the registry search (building and
compiling its branches was 11 of a 27 ms search). Every other query is the ORM's, plain.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured, ObjectDoesNotExist
from django.db import connections
from django.db.models import CharField, IntegerField, Model, QuerySet, Value
from django.utils import timezone

_STAND_IN = -7_315_000_000  # a key no row has; the n-th stand-in is this minus n
# A stand-in text: no parameter of real SQL holds a NUL (PostgreSQL refuses them); its
# letters, wildcards and backslash show a case change or an escape made in Python.
_STAND_IN_TEXT = "\x00%_\\Fill{}\x00"


class Fill:
    """Values of one call that a builder uses only as SQL parameters, and ``shape``: what
    else of the call decides the SQL (hashable), which the builder reads as it is."""

    def __init__(self, shape: tuple = (), **values: str | int):
        self.shape = shape
        self.values = values

    def __getitem__(self, name: str) -> Value:
        value = self.values[name]
        field = IntegerField() if isinstance(value, int) else CharField()
        return Value(value, output_field=field)


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple
    compiler: object  # the compiler that built the SQL: its converters read the rows
    using: str
    slots: dict  # stand-in -> (keyword, index in the tuple, or None for a record)


class CompiledOnce:
    def __init__(self, build: Callable[..., QuerySet], *, version: Callable[[], object] = None):
        self.build = build
        self.version = version or (lambda: None)
        self._plans: dict[tuple, _Plan] = {}

    def clear(self) -> None:
        self._plans.clear()

    def rows(self, **keys):
        if any(not isinstance(v, Model) and not v for v in keys.values()):
            return iter(())  # IN () matches nothing
        plan = self._plan(keys)
        real = {}
        for stand_in, (name, index) in plan.slots.items():
            value = keys[name]
            if isinstance(value, Fill):
                real[stand_in] = value.values[index]
            else:
                real[stand_in] = value.pk if index is None else value[index]
        params = tuple(real.get(p, p) if type(p) in (int, str) else p for p in plan.params)
        with connections[plan.using].cursor() as cursor:
            cursor.execute(plan.sql, params)
            fetched = cursor.fetchall()
        return plan.compiler.results_iter(results=[fetched], tuple_expected=True)

    def _plan(self, keys: dict) -> _Plan:
        shape = tuple((name, _shape(v)) for name, v in sorted(keys.items()))
        # The SQL may name the time zone (a date of a timestamp), and differs per database.
        key = (shape, timezone.get_current_timezone_name(), self.version())
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = self._compile(keys)
        return plan

    def _compile(self, keys: dict) -> _Plan:
        slots, stand_ins = {}, {}
        for name, value in sorted(keys.items()):
            if isinstance(value, Fill):
                stand_in_values = {}
                for field, real in sorted(value.values.items()):
                    if isinstance(real, int):
                        stand_in = _STAND_IN - len(slots)
                    else:
                        stand_in = _STAND_IN_TEXT.format(len(slots))
                    slots[stand_in] = (name, field)
                    stand_in_values[field] = stand_in
                stand_ins[name] = Fill(value.shape, **stand_in_values)
            elif isinstance(value, Model):
                pk = _STAND_IN - len(slots)
                slots[pk] = (name, None)
                model = type(value)
                stand_ins[name] = model.from_db(None, [model._meta.pk.attname], [pk])
            else:
                values = []
                for index in range(len(value)):
                    values.append(_STAND_IN - len(slots))
                    slots[values[-1]] = (name, index)
                stand_ins[name] = tuple(values)
        try:
            queryset = self.build(**stand_ins)
            compiler = queryset.query.get_compiler(using=queryset.db)
            sql, params = compiler.as_sql()
        except ObjectDoesNotExist:  # the builder read a field of a stand-in record
            sql, params = "", ()
        records = [pk for pk, (_, index) in slots.items() if index is None]
        if any(type(p) is str and "\x00" in p and p not in slots for p in params):
            sql = ""  # a stand-in text changed in Python before it reached the SQL
        if not sql or str(-_STAND_IN)[:8] in sql or not all(pk in params for pk in records):
            raise ImproperlyConfigured(
                f"{self.build.__module__}.{self.build.__qualname__} uses a record otherwise "
                "than as a filter value, or a filled value otherwise than as a parameter: "
                "its SQL cannot be compiled once (base.compiled)."
            )
        return _Plan(sql, tuple(params), compiler, queryset.db, slots)


def _shape(value):
    if isinstance(value, Fill):
        return (Fill, value.shape, tuple(sorted(value.values)))
    if isinstance(value, Model):
        return type(value)
    return len(value)
