from ._base import IssuedRecordDeletion
from .kennels import KennelAnimal, KennelDecision, KennelLicence, KennelStatus
from .licences import (
    ExemptionKind,
    Licence,
    LicenceExemption,
    LicenceKind,
    LicenceSeries,
    LicenceStatus,
    PaymentMethod,
    Receipt,
    ReceiptLine,
    ReceiptSeries,
    Tag,
    TagStatus,
    TagStock,
)
from .registry import (
    Animal,
    AnimalStatus,
    Owner,
    Ownership,
    Premises,
    RabiesVaccination,
    Sex,
    Species,
)

__all__ = [
    "Animal", "AnimalStatus", "ExemptionKind", "IssuedRecordDeletion", "KennelAnimal",
    "KennelDecision", "KennelLicence", "KennelStatus", "Licence", "LicenceExemption",
    "LicenceKind", "LicenceSeries", "LicenceStatus", "Owner", "Ownership", "PaymentMethod",
    "Premises", "RabiesVaccination", "Receipt", "ReceiptLine", "ReceiptSeries", "Sex",
    "Species", "Tag", "TagStatus", "TagStock",
]
