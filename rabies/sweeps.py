"""Rabies sweeps and upcoming deadlines: importing this registers them all."""

from . import (
    sweeps_exposures,  # noqa: F401
    sweeps_quarantine,  # noqa: F401
    sweeps_vaccinations,  # noqa: F401
)
