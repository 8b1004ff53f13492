"""Sections dangerous_dogs fills on pages of the apps below it (base.sections; see apps.py)."""


def animal_designations(request, *, animal):
    """The animal page's dangerous-dog designations (none can be recorded yet)."""
    return "dangerous_dogs/_animal_designations.html", {"animal": animal}
