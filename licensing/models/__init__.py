from ._base import IssuedRecordDeletion
from .kennels import KennelAnimal, KennelDecision, KennelLicense, KennelStatus
from .licenses import (
    ExemptionKind,
    License,
    LicenseExemption,
    LicenseKind,
    LicenseSeries,
    LicenseStatus,
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
    "KennelDecision", "KennelLicense", "KennelStatus", "License", "LicenseExemption",
    "LicenseKind", "LicenseSeries", "LicenseStatus", "Owner", "Ownership", "PaymentMethod",
    "Premises", "RabiesVaccination", "Receipt", "ReceiptLine", "ReceiptSeries", "Sex",
    "Species", "Tag", "TagStatus", "TagStock",
]
