from django import forms
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction

from .models import Scope


class IntegrationForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=120,
        help_text=_(
            "The system that will call, e.g. \u201cFinance export\u201d or "
            "\u201cCounty dispatch\u201d."
        ),
    )
    cities = forms.ModelMultipleChoiceField(
        label=_("Cities whose records it may read"),
        queryset=Jurisdiction.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may read"),
        choices=Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Give only what the system needs. Owners' names, addresses, phones and "
            "e-mails need \u201cPersonal data\u201d as well."
        ),
    )

    def __init__(self, *args, cities, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["cities"]
        field.queryset = Jurisdiction.objects.filter(pk__in=[c.pk for c in cities]).order_by("name")
        if len(cities) == 1:  # one city: no picker (architecture.md)
            field.widget = forms.MultipleHiddenInput()
            field.initial = [cities[0].pk]


class RevokeForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=200)
