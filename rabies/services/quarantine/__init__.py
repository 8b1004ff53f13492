"""Quarantines of a biting or suspect animal (RAB-13 to RAB-24; Appendix B4; C41-C45).

North Branch Sec. 6-98: a biting animal is confined ``bite_confinement_days`` from the bite
(``bite_confinement_anchor``); at home only on proof of current vaccination and with the
officer's consent (6-98(1)), under the profile's conditions, otherwise at the facility at
the owner's expense (6-98(2)), an impound case. Glencoe 701 Subd. 21: a vaccinated dog,
cat or ferret (``rabies_suspect_quarantine_species``) is quarantined by the owner (21(B));
an unvaccinated one is seized and impounded (21(A)).

The package: ``ordering`` (the order), ``inspections`` (a home confinement watched, and
moved to the facility on a breach), ``examination`` (the period over, the examination),
``gate`` (the city's release gate and the records that clear it), ``release``.
"""

from .examination import exam_citation, examiner_capacities, mark_ended, quarantine_exam
from .gate import (
    VETERINARIAN_REPORT,
    WRITTEN_PERMISSION,
    Gate,
    permission_record,
    release_gate,
    report_record,
)
from .inspections import (
    facility_citation,
    inspection_citation,
    inspection_log,
    last_breach,
    quarantine_resolve,
    quarantine_to_facility,
)
from .ordering import (
    Options,
    conditions_for,
    confinement_options,
    issue_order,
    quarantine_order,
    vaccination_summary,
)
from .release import Item, missing, quarantine_release, release_checklist

__all__ = [
    "VETERINARIAN_REPORT",
    "WRITTEN_PERMISSION",
    "Gate",
    "Item",
    "Options",
    "conditions_for",
    "confinement_options",
    "exam_citation",
    "examiner_capacities",
    "facility_citation",
    "inspection_citation",
    "inspection_log",
    "issue_order",
    "last_breach",
    "mark_ended",
    "missing",
    "permission_record",
    "quarantine_exam",
    "quarantine_order",
    "quarantine_release",
    "quarantine_resolve",
    "quarantine_to_facility",
    "release_checklist",
    "release_gate",
    "report_record",
    "vaccination_summary",
]
