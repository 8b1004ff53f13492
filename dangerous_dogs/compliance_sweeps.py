"""Dangerous-dog sweeps of the compliance stage (filled by its part of issue 10)."""
