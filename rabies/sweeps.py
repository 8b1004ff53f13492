"""Rabies sweeps and upcoming deadlines (filled by the parts of issue 11)."""

from . import sweeps_vaccinations  # noqa: F401
from . import sweeps_quarantine  # noqa: F401
from . import sweeps_exposures  # noqa: F401
