import re

from django import forms
from django.utils.translation import gettext_lazy as _


class LinkForm(forms.Form):
    """What a resident has in hand: the license or tag, and what the clerk has on file."""

    number = forms.CharField(
        label=_("License number or tag number"),
        max_length=40,
        help_text=_("As printed on your license certificate, or stamped on your dog's metal tag."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
    last_name = forms.CharField(
        label=_("Last name"),
        max_length=80,
        help_text=_("The owner's last name as on the license."),
        widget=forms.TextInput(attrs={"autocomplete": "family-name"}),
    )
    postal_code = forms.CharField(
        label=_("ZIP code"),
        max_length=10,
        help_text=_("Of the address on the license."),
        widget=forms.TextInput(attrs={"autocomplete": "postal-code", "inputmode": "numeric"}),
    )

    def clean_postal_code(self):
        value = self.cleaned_data["postal_code"]
        if len(re.sub(r"\D", "", value)) < 5:
            raise forms.ValidationError(_("Enter the five digits of your ZIP code."))
        return value
