"""Issued records the database itself protects (style.md "Issued
records are never deleted").

The models refuse ``delete()`` and the services never rewrite a receipt, but
``Receipt.objects.update(total=0)`` or raw SQL would go around both, and around the
history. A trigger on each issued table refuses what no service does:

- DELETE of the row (PostgreSQL only: Django empties SQLite tables with DELETE between
  transactional tests, so there the models' guard is the line);
- UPDATE of the columns that say what was issued (number, amounts, payer, issue time).

A refused statement raises ``IntegrityError`` (PostgreSQL's restrict_violation, SQLite's
``RAISE(ABORT)``) and the transaction rolls back. ``Guard.allow_when`` lets a column be
filled once (an archived document's file and checksum are written after the PDF renders).
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Guard:
    table: str
    columns: tuple[str, ...]
    # Columns that may change while the old row satisfies ``allow_when`` (an SQL condition
    # on OLD that works in both PostgreSQL and SQLite).
    fill_once: tuple[str, ...] = ()
    allow_when: str = ""
    label: str = field(default="")

    @property
    def name(self) -> str:
        return f"protect_{self.table}"

    def _changed(self, columns) -> str:
        return " OR ".join(f"NEW.{c} IS DISTINCT FROM OLD.{c}" for c in columns)

    def _changed_sqlite(self, columns) -> str:
        return " OR ".join(f"NEW.{c} IS NOT OLD.{c}" for c in columns)

    def message(self, what: str) -> str:
        return f"{self.label or self.table}: issued records cannot be {what}"


def _postgresql(guard: Guard) -> tuple[list[str], list[str]]:
    changed = guard._changed(guard.columns)
    if guard.fill_once:
        changed += f" OR (NOT ({guard.allow_when}) AND ({guard._changed(guard.fill_once)}))"
    function = f"""
        CREATE OR REPLACE FUNCTION {guard.name}() RETURNS trigger AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                RAISE EXCEPTION '{guard.message("deleted")}' USING ERRCODE = 'restrict_violation';
            END IF;
            IF {changed} THEN
                RAISE EXCEPTION '{guard.message("rewritten")}' USING ERRCODE = 'restrict_violation';
            END IF;
            RETURN NEW;
        END
        $$ LANGUAGE plpgsql;
    """
    trigger = (
        f"CREATE TRIGGER {guard.name} BEFORE UPDATE OR DELETE ON {guard.table} "
        f"FOR EACH ROW EXECUTE FUNCTION {guard.name}();"
    )
    drop = [
        f"DROP TRIGGER IF EXISTS {guard.name} ON {guard.table};",
        f"DROP FUNCTION IF EXISTS {guard.name}();",
    ]
    return [function, trigger], drop


def _sqlite(guard: Guard) -> tuple[list[str], list[str]]:
    changed = guard._changed_sqlite(guard.columns)
    watched = guard.columns
    if guard.fill_once:
        changed += f" OR (NOT ({guard.allow_when}) AND ({guard._changed_sqlite(guard.fill_once)}))"
        watched = (*watched, *guard.fill_once)
    trigger = (
        f"CREATE TRIGGER {guard.name} BEFORE UPDATE OF {', '.join(watched)} ON {guard.table} "
        f"FOR EACH ROW WHEN {changed} "
        f"BEGIN SELECT RAISE(ABORT, '{guard.message('rewritten')}'); END;"
    )
    return [trigger], [f"DROP TRIGGER IF EXISTS {guard.name};"]


def _statements(vendor: str, guard: Guard):
    if vendor == "postgresql":
        return _postgresql(guard)
    if vendor == "sqlite":
        return _sqlite(guard)
    return [], []


def install(*guards: Guard):
    """``migrations.RunPython(*install(...))``: create the triggers; drop them on reverse."""

    def forward(apps, schema_editor):
        for guard in guards:
            for sql in _statements(schema_editor.connection.vendor, guard)[0]:
                schema_editor.execute(sql)

    def backward(apps, schema_editor):
        for guard in guards:
            for sql in _statements(schema_editor.connection.vendor, guard)[1]:
                schema_editor.execute(sql)

    return forward, backward
