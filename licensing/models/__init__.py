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
    "Animal", "AnimalStatus", "Owner", "Ownership", "Premises", "RabiesVaccination", "Sex",
    "Species",
]
