"""Registers licensing's deadline sweeps and upcoming-deadline queries with ordinance.

Each part of the licensing app adds its registrations in its own module, imported here.
"""

from . import sweeps  # noqa: E402,F401  (expiry and kennel sweeps, upcoming deadlines)
