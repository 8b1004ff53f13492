"""What a city's license application must state (LIC-04; North Branch Sec. 6-61).

The one answer to "what does this city's application require": the counter's checks
(``assessment.application_check``) and every entry form (the counter's new-animal form,
the registry's animal and owner forms) read it here, so a field the ordinance lists is
required everywhere and a field it does not list stays optional everywhere.
"""

from dataclasses import dataclass
from datetime import date

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from licensing.models import Sex
from ordinance.rules import rule_in_force

# Profile key (``license_application_fields``) -> what it is called, how the record
# answers it, and the form fields that carry it.
FIELDS = {
    "owner_name": (_("the owner's name"), lambda animal, owner: owner.name, ("last_name",)),
    "owner_address": (
        _("the owner's address"),
        lambda animal, owner: owner.address_line,
        ("address_line",),
    ),
    "name": (_("the dog's name"), lambda animal, owner: animal.name, ("name",)),
    "breed": (_("the breed"), lambda animal, owner: animal.breed, ("breed",)),
    "color": (_("the color"), lambda animal, owner: animal.color, ("color",)),
    "age": (
        _("the age (date of birth, or an estimate)"),
        lambda animal, owner: animal.date_of_birth,
        ("date_of_birth",),
    ),
    "sex": (_("the sex"), lambda animal, owner: animal.sex != Sex.UNKNOWN, ("sex",)),
}


@dataclass(frozen=True)
class ApplicationRequirements:
    """The application fields a city's ordinance lists, with the section that lists them."""

    keys: tuple[str, ...] = ()
    citation: str = ""

    def label(self, key: str):
        return FIELDS[key][0]

    def form_fields(self) -> dict[str, str]:
        """Form field name -> the profile key that requires it."""
        return {name: key for key in self.keys if key in FIELDS for name in FIELDS[key][2]}

    def missing(self, animal, owner) -> list:
        """What the record does not state yet, in the ordinance's words."""
        return [FIELDS[k][0] for k in self.keys if k in FIELDS and not FIELDS[k][1](animal, owner)]


NONE = ApplicationRequirements()


def application_requirements(jurisdiction, *, on: date) -> ApplicationRequirements:
    """LIC-04: the fields the city's application must state (none where its ordinance
    lists none, as Glencoe's does not)."""
    rule = rule_in_force(jurisdiction, "license_application_fields", on=on, optional=True)
    if rule is None:
        return NONE
    return ApplicationRequirements(keys=tuple(rule.value), citation=rule.citation)


def require_application_fields(form, jurisdiction, *, on: date) -> ApplicationRequirements:
    """Mark the form's fields the city's application requires as required: the label
    (crispy's asterisk), the ``required`` attribute, a help text citing the section and
    a message next to the field when it is left empty. Other fields stay as they are."""
    needs = application_requirements(jurisdiction, on=on)
    for name, key in needs.form_fields().items():
        field = form.fields.get(name)
        if field is None:
            continue
        field.required = True
        field.widget.attrs["required"] = True
        message = format_lazy(
            _("The application must state {what} ({section})."),
            what=needs.label(key),
            section=needs.citation,
        )
        field.error_messages["required"] = message
        required = format_lazy(
            _("Required on the application ({section})."), section=needs.citation
        )
        field.help_text = (
            format_lazy("{} {}", field.help_text, required) if field.help_text else required
        )
        if name == "sex":  # "Unknown" does not state the sex
            field.choices = [("", "---------")] + [
                c for c in field.choices if c[0] not in ("", Sex.UNKNOWN)
            ]
            field.error_messages["invalid_choice"] = message
    return needs
