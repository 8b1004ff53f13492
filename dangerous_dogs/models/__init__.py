"""Dangerous dogs: Glencoe's Subd. 15 proceeding and North Branch's Sec. 6-73 classification.

Rules: DD-01..30, rules.md Appendix B3 (the lifecycle), C24-C38 (documents), Appendix D
G14-G27 (blanks), Appendix H MN-05..08 (the Minnesota floors). The proceeding runs only
where the city's profile has ``dd_contest_days`` (an optional rule); North Branch has no
procedure (DD-29): an officer's recorded ``Classification`` puts the Sec. 6-73 duty on
the dog's page, and a classified dog at large is impounded behind the Sec. 6-75 gate.

An owner's rights are at stake, so every step is a dated row or a stored date with its
section, every state change is a named step of the case's table (``steps``) that records
its Event, and nothing is deleted (``kernel.kept``): a withdrawn or rescinded designation
stays on record with its reasons. People's decisions (the City Attorney's review, the
panel's finding, the Council's appeal decision, a review) are ``notices.Decision`` rows.

- ``steps``: the case's states and its table of steps;
- ``case``: the case, the incident and the investigation;
- ``panel``: the Review Panel's hearing and seats, the appeal of its ruling;
- ``compliance``: proofs of compliance and the certificate of registration;
- ``owner``: the owner's reports and the sterilization order;
- ``review``: review of the designation, charges, summary destruction;
- ``classification``: North Branch's classification.
"""

from .case import (
    DANGEROUS_CRITERIA,
    POTENTIALLY_DANGEROUS_CRITERIA,
    Criterion,
    DeclaredBy,
    Designation,
    DesignationCase,
    IncidentKind,
    evidence_path,
)
from .classification import Classification, ClassificationTerm
from .compliance import ComplianceProof, CoverageKind, Registration, Requirement, proof_path
from .owner import (
    OwnerReport,
    ReportKind,
    SterilizationOrder,
    affidavit_path,
    certificate_path,
)
from .panel import Appeal, HearingFinding, PanelHearing, PanelSeat, Seat, Vote
from .review import (
    Charge,
    ChargeOutcome,
    DestructionGround,
    ReviewRequest,
    SummaryDestruction,
)
from .steps import (
    CASE_STEPS,
    CLOSED_STATUSES,
    IN_FORCE_STATUSES,
    OPEN_STATUSES,
    CaseStatus,
)

__all__ = [
    "CASE_STEPS",
    "CLOSED_STATUSES",
    "DANGEROUS_CRITERIA",
    "IN_FORCE_STATUSES",
    "OPEN_STATUSES",
    "POTENTIALLY_DANGEROUS_CRITERIA",
    "Appeal",
    "CaseStatus",
    "Charge",
    "ChargeOutcome",
    "Classification",
    "ClassificationTerm",
    "ComplianceProof",
    "CoverageKind",
    "Criterion",
    "DeclaredBy",
    "Designation",
    "DesignationCase",
    "DestructionGround",
    "HearingFinding",
    "IncidentKind",
    "OwnerReport",
    "PanelHearing",
    "PanelSeat",
    "Registration",
    "Requirement",
    "ReportKind",
    "ReviewRequest",
    "Seat",
    "SterilizationOrder",
    "SummaryDestruction",
    "Vote",
    "affidavit_path",
    "certificate_path",
    "evidence_path",
    "proof_path",
]
