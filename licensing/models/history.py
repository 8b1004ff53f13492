"""A bulk transition that keeps the audit history.

``StatefulRecord.apply_all`` is one UPDATE and one INSERT of events; simple-history's
signals do not see a bulk UPDATE, so the rows it moved get their history rows here, in
bulk too, with who moved them and why (REC-18): a block of tags sent to a clinic, the
licenses and tags of an undone import.
"""

from datetime import datetime


def apply_all_with_history(
    model, queryset, name: str, *, at: datetime, actor=None, reason: str = "", summary="", **values
) -> list:
    """``model.apply_all`` on the rows of ``queryset`` (locked by the caller) still in a
    state ``name`` starts from, and one history row each. Returns the rows moved."""
    sources = model.transition(name).sources
    pks = list(queryset.filter(status__in=sources).values_list("pk", flat=True))
    if not pks:
        return []
    rows = model._base_manager.filter(pk__in=pks)
    model.apply_all(rows, name, at=at, actor=actor, summary=summary, **values)
    moved = list(rows)
    model.history.bulk_history_create(
        moved, update=True, default_user=actor, default_change_reason=reason[:100], default_date=at
    )
    return moved
