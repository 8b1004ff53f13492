"""Import a city's records from its old system or spreadsheet (issue 19 item 1)."""

from .engine import dry_run, import_apply, import_cancel, import_queue
from .undo import import_undo, undo_refusal

__all__ = [
    "dry_run",
    "import_apply",
    "import_cancel",
    "import_queue",
    "import_undo",
    "undo_refusal",
]
