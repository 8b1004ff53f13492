"""Sections impound fills on pages of the apps below it (base.sections; see apps.py)."""


def animal_impounds(request, *, animal):
    """The animal page's impounds (none can be recorded yet)."""
    return "impound/_animal_impounds.html", {"animal": animal}
