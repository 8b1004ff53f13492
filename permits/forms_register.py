"""Forms of the register: an exemption (Subd. 32(B), (C)), its end, a permit's premises.
Shape only; the rules (what must be confirmed for each basis) are the service's."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import DateInput
from licensing.models import Owner
from permits.models import ExemptionBasis, HorsePermit, TemporaryPermit
from permits.services.register import exemption_section


class ExemptionForm(forms.Form):
    basis = forms.ChoiceField(label=_("Basis"), choices=ExemptionBasis.choices)
    holder_name = forms.CharField(label=_("Hospital, clinic or program"), max_length=200)
    owner = forms.ModelChoiceField(
        label=_("Holder in the registry (optional)"), queryset=Owner.objects.none(), required=False
    )
    protective_devices_confirmed = forms.BooleanField(
        label=_("Protective devices adequate to prevent escape or injury confirmed"),
        required=False,
    )
    zoning_confirmed = forms.BooleanField(
        label=_("The premises comply with the zoning requirements (confirmed)"), required=False
    )
    confirmed_by_name = forms.CharField(label=_("Confirmed by"), max_length=200)
    evidence = forms.CharField(
        label=_("What was seen or relied on"), widget=forms.Textarea(attrs={"rows": 3})
    )
    starts_on = dates.DateField(label=_("In force from"), widget=DateInput())

    def __init__(self, *args, premises, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["starts_on"].initial = timezone.localdate()
        # Owners with an animal at these premises: a short list, never the whole city.
        self.fields["owner"].queryset = Owner.objects.filter(
            jurisdiction=premises.jurisdiction, animals__premises=premises
        ).distinct()
        city = premises.jurisdiction
        self.sections = [
            (label, *exemption_section(city, value)) for value, label in ExemptionBasis.choices
        ]


class ExemptionEndForm(forms.Form):
    ended_on = dates.DateField(label=_("Ended on"), widget=DateInput())
    reason = forms.CharField(label=_("Why it ended"), widget=forms.Textarea(attrs={"rows": 2}))


class PermitLinkForm(forms.Form):
    permit = forms.ChoiceField(label=_("Permit that covers these premises"))

    def __init__(self, *args, premises, **kwargs):
        super().__init__(*args, **kwargs)
        self.premises = premises
        city = premises.jurisdiction_id
        self._permits = {
            f"{prefix}{p.pk}": p
            for prefix, model in (("h", HorsePermit), ("t", TemporaryPermit))
            for p in model.objects.filter(jurisdiction_id=city, premises__isnull=True)[:200]
        }
        self.fields["permit"].choices = [
            (key, f"{p.kind_label} {p}") for key, p in self._permits.items()
        ]

    def clean_permit(self):
        return self._permits[self.cleaned_data["permit"]]
