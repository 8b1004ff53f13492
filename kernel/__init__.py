"""The case kernel: what every record of every domain app stands on.

- ``kernel.models``: ``StatefulRecord`` (a status that changes only through the
  transitions its model declares, applied by ``apply``), ``CaseRecord`` (a stateful city
  record with the attention flag and closing), ``Transition``, and ``NumberSeries``;
- ``kernel.kept``: records are kept, never deleted (``RecordKept``, ``KeptQuerySet``);
- ``kernel.numbers``: one allocator for every official number series;
- ``kernel.checks``: the checks every service makes (the city is one the person serves,
  a date of something that happened is not in the future).

It sits above the rulebook (``ordinance``: ``Refused``, ``Event``, ``Jurisdiction``) and
below every domain app (the import contract in ``pyproject.toml``).
"""
