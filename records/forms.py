from django import forms
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction


class ExportForm(forms.Form):
    """Which of the administrator's cities to export. With one city there is no choice
    to make (architecture.md: no trace of other cities), so the field is hidden."""

    cities = forms.ModelMultipleChoiceField(
        label=_("Cities"),
        queryset=Jurisdiction.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one city to export.")},
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        served = user.served_list
        field = self.fields["cities"]
        field.queryset = Jurisdiction.objects.filter(pk__in=[c.pk for c in served])
        field.initial = [c.pk for c in served]
        if len(served) == 1:
            field.widget = forms.MultipleHiddenInput()
