"""The species table's "kind" field beside the species field (Glencoe 701 Subd. 1(R)):
offered only where the city's ordinance has a table; the check itself is the service's
(licensing.services.species)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ordinance.rules import rule_citation
from ordinance.species import species_choices


def add_kind_field(form, jurisdiction) -> None:
    """Insert "kind" right after "species" when the city has a species table."""
    choices = species_choices(jurisdiction) if jurisdiction is not None else []
    if not choices:
        return
    field = forms.ChoiceField(
        label=_("Kind (species table)"),
        choices=[("", _("— the usual kind of the species —")), *choices],
        required=False,
        help_text=_("Classifies the animal as a pet, a farm animal or a wild animal (%(section)s).")
        % {"section": rule_citation(jurisdiction, "WLD-01")},
    )
    instance = getattr(form, "instance", None)
    if instance is not None and instance.pk:
        field.initial = instance.kind
    fields = list(form.fields.items())
    at = next((i + 1 for i, (name, _f) in enumerate(fields) if name == "species"), len(fields))
    fields.insert(at, ("kind", field))
    form.fields = dict(fields)
