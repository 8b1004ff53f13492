"""Import a city's records from its old system or spreadsheet."""

from .engine import dry_run, import_apply, import_cancel, import_mapping_set, import_queue
from .undo import import_undo, undo_refusal

__all__ = [
    "dry_run",
    "import_apply",
    "import_cancel",
    "import_mapping_set",
    "import_queue",
    "import_undo",
    "undo_refusal",
]
