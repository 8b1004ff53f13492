"""Dangerous-dog sweeps after registration (filled by its part of issue 10)."""
