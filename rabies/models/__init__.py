"""Bites and rabies: bite reports, quarantines, rabid-animal exposures, and their records.

Rules: RAB-01..33, DEF-08, DEF-09; rules.md Appendix B4 (bite and quarantine case), B5
(Glencoe's rabid-exposure case), C39-C48 (documents), Appendix D. North Branch Secs.
6-77, 6-96, 6-98; Glencoe 701 Subds. 1(L)-(N), 20-23.

- ``BiteReport`` (C39, C40): who reported, the victim, the biting animal, skin broken and
  saliva exposure (Glencoe's "rabies suspect", DEF-09), the vaccination on file, whether
  the owner's report was late (NB Sec. 6-96(2)), and the officer's decision.
- ``Quarantine`` (B4): the confinement of a biting or suspect animal at home or at the
  pound (a facility quarantine is an impound case, opened through impound's intake), its
  stored end, inspections, the examination (C44) and the city's release gate (NB written
  permission, C42; Glencoe the veterinarian's report to the officer and the Board, C45).
- ``Exposure`` (B5, Glencoe only): an animal bitten or exposed by a rabid animal, on one of
  the four Subd. 22 paths, with the Board report (C46) and the owner's consent (C48).
- ``ExaminerHearing`` (C47) and ``LabSubmission``: the Hearing Examiner's proceeding and a
  specimen sent to a laboratory.

Nothing here is deleted (``kernel.kept``). The three cases stand on the case kernel: each
declares its transitions in ``TRANSITIONS`` and changes state only through ``apply``, which
records the Event; field history is kept by simple-history.
"""

from .base import RabiesCase, ReleaseReportFields, upload_path
from .bites import (
    BITE_OPEN,
    BiteDecision,
    BiteReport,
    BiterKind,
    BiteStatus,
    DocumentRequest,
    LabResult,
    LabSubmission,
    ReporterKind,
    RequestedDocument,
    SalivaExposure,
    VictimKind,
)
from .exposures import (
    EXPOSURE_OPEN,
    EXPOSURE_RUNNING,
    Exposure,
    ExposurePath,
    ExposureStatus,
    RabidBasis,
)
from .hearings import ExaminerHearing, HearingOutcome
from .quarantines import (
    QUARANTINE_ACTIVE,
    QUARANTINE_OPEN,
    Inspection,
    InspectionKind,
    Quarantine,
    QuarantinePlace,
    QuarantineStatus,
)
from .reminders import VaccinationReminder

__all__ = [
    "BITE_OPEN",
    "EXPOSURE_OPEN",
    "EXPOSURE_RUNNING",
    "QUARANTINE_ACTIVE",
    "QUARANTINE_OPEN",
    "BiteDecision",
    "BiteReport",
    "BiterKind",
    "BiteStatus",
    "DocumentRequest",
    "ExaminerHearing",
    "Exposure",
    "ExposurePath",
    "ExposureStatus",
    "HearingOutcome",
    "Inspection",
    "InspectionKind",
    "LabResult",
    "LabSubmission",
    "Quarantine",
    "QuarantinePlace",
    "QuarantineStatus",
    "RabidBasis",
    "RabiesCase",
    "ReleaseReportFields",
    "ReporterKind",
    "RequestedDocument",
    "SalivaExposure",
    "VaccinationReminder",
    "VictimKind",
    "upload_path",
]
