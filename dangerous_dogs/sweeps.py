"""Dangerous-dog sweeps of the notice stage (filled by its part of issue 10)."""
