"""Offsets of the demo's scene: when its events happened relative to today."""

from datetime import timedelta


def scene_days(n: int) -> timedelta:
    """An offset of the demo's scene (when things happened), never an ordinance period:
    every deadline comes from the profile through ``deadline``."""
    return timedelta(days=n)
