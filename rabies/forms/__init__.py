"""The rabies forms, one module per group of pages as in ``rabies.views``: the shape of the
input only; the rules are the services'."""
