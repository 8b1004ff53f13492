"""The demo simulation: North Branch and Glencoe side by side, loaded by ``demo_data``.

It sits at the top beside ``config``: it may import every app, and no app imports it
(pyproject.toml, import-linter). The domain apps carry no demo code. ``make run`` prints
the logins from ``demo.users``; the test fixtures take the two cities from
``demo.jurisdictions``.
"""
