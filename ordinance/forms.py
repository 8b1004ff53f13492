from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from base import dates

from . import kinds


class AmendmentForm(forms.Form):
    """Record an amendment of one profile value, or fill in a blank (rules.md Section 0)."""

    value = forms.CharField(label=_("New value"))
    effective_from = dates.DateField(
        label=_("In force from"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The date the amending ordinance takes effect."),
    )
    ordinance_ref = forms.CharField(
        label=_("Ordinance number"),
        max_length=100,
        help_text=_("E.g. “Ord. No. 245-26”."),
    )
    citation = forms.CharField(
        label=_("Citation"),
        max_length=200,
        required=False,
        help_text=_("Leave empty to keep the current section."),
    )
    note = forms.CharField(
        label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, spec, adopted, **kwargs):
        super().__init__(*args, **kwargs)
        self.spec, self.adopted = spec, adopted
        field = self.fields["value"]
        if spec.key.endswith("_comparison"):
            # a comparison code (rules.md DEF-01), offered in words
            self.fields["value"] = forms.ChoiceField(
                label=field.label,
                choices=[
                    ("", "—"),
                    ("gt", _("More than (older or longer than) the value")),
                    ("gte", _("The value or more (that age or longer)")),
                ],
            )
        elif spec.kind == "bool":
            self.fields["value"] = forms.ChoiceField(
                label=field.label, choices=[("", "—"), ("yes", _("Yes")), ("no", _("No"))]
            )
        elif spec.kind == "list":
            field.widget = forms.Textarea(attrs={"rows": 3})
            field.help_text = _("One item per line, or separated by commas.")
        elif spec.kind == "month_day":
            field.help_text = _("Month and day, e.g. 12-31 for December 31.")
        elif spec.kind == "time":
            field.help_text = _("A time on a 24-hour clock, e.g. 08:00 or 19:00.")
        elif spec.kind in ("money", "rate", "decimal"):
            field.help_text = {
                "money": _("Dollars and cents, e.g. 15.00."),
                "rate": _("A fraction, e.g. 0.50 for 50%."),
            }.get(spec.kind, "")
        elif spec.unit:
            field.help_text = _("A whole number of %(unit)s.") % {
                "unit": spec.unit.replace("_", " ")
            }

    def clean_value(self):
        try:
            return kinds.parse_input(self.spec.kind, self.cleaned_data["value"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_effective_from(self):
        day = self.cleaned_data["effective_from"]
        if day < self.adopted:
            raise forms.ValidationError(
                _("An amendment cannot take effect before the ordinance was adopted (%(date)s).")
                % {"date": date_format(self.adopted)}
            )
        return day
