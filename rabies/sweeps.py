"""Rabies sweeps and upcoming deadlines (filled by the parts of issue 11)."""
