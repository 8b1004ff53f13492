"""Registers licensing's deadline sweeps and upcoming-deadline queries with ordinance.

Each part of the licensing app adds its registrations in its own module, imported here.
"""
