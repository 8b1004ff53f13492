"""A confirmation step for what cannot be taken back: voiding a
receipt, closing a license, recording a death. The first valid POST shows what will be
done and asks again; only the second, with ``confirmed``, does it. Nothing typed is lost:
the confirmation carries the fields as hidden inputs, and "Change" brings the form back
filled in. No script is needed, so it works the same by keyboard and screen reader.
"""

from django import forms
from django.utils.formats import date_format


class ConfirmStep(forms.Form):
    """Mix into a form whose action cannot be undone."""

    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def awaiting_confirmation(self) -> bool:
        """Valid, and not yet confirmed on the summary step (nor sent back to change)."""
        return (
            self.is_valid() and not self.cleaned_data.get("confirmed") and "change" not in self.data
        )

    def confirmed_now(self) -> bool:
        """Valid and confirmed on the summary step: do it."""
        return (
            self.is_valid()
            and bool(self.cleaned_data.get("confirmed"))
            and ("change" not in self.data)
        )

    @property
    def action_data(self) -> dict:
        """The cleaned data without the confirmation flag, for the service."""
        return {k: v for k, v in self.cleaned_data.items() if k != "confirmed"}

    def summary(self) -> list[tuple[str, str]]:
        """(label, value as the person chose it) of each visible field, for the summary."""
        rows = []
        for field in self.visible_fields():
            value = self.cleaned_data.get(field.name)
            choices = dict(getattr(field.field, "choices", ()) or ())
            if value in choices:
                value = choices[value]
            elif hasattr(value, "strftime"):
                value = date_format(value)
            rows.append((str(field.label), "" if value in (None, "") else str(value)))
        return rows
