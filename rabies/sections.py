"""Sections rabies fills on pages of the apps below it (base.sections; see apps.py)."""


def animal_bites(request, *, animal):
    """The animal page's bite reports and quarantines (none can be recorded yet)."""
    return "rabies/_animal_bites.html", {"animal": animal}
