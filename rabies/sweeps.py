"""Rabies sweeps and upcoming deadlines (filled by the parts of issue 11)."""

from . import (
    sweeps_exposures,  # noqa: F401
    sweeps_quarantine,  # noqa: F401
    sweeps_vaccinations,  # noqa: F401
)
