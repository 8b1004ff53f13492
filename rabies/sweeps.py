"""Rabies sweeps and upcoming deadlines (filled by the parts of issue 11)."""

from . import sweeps_exposures  # noqa: F401
