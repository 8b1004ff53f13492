"""Permit forms: the shape of the input only; the rules are checked by the services and
their refusals put next to the fields (licensing.forms.registry.apply_service_errors)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import DateInput
from ordinance.models import Jurisdiction
from permits.models import Decision, HorsePermit, TemporaryPermit
from permits.services.common import permit_cities
from permits.services.horses import APPLICATION_FIELDS

TEMPORARY_FIELDS = (
    "applicant_name",
    "applicant_address",
    "applicant_phone",
    "show_name",
    "location",
    "species",
    "state_permit_number",
    "state_exempt",
    "exemption_basis",
    "starts_on",
    "ends_on",
    "conditions",
)


class CityMixin:
    """A city choice among the user's cities whose ordinance has the permit; none when
    there is only one."""

    kind = ""

    def setup_city(self, user):
        self.cities = permit_cities(user, self.kind, on=timezone.localdate())
        if len(self.cities) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                label=_("City"),
                queryset=Jurisdiction.objects.filter(pk__in=[c.pk for c in self.cities]),
            )
            self.order_fields(["jurisdiction"])

    def city(self):
        if "jurisdiction" in self.fields:
            return self.cleaned_data["jurisdiction"]
        return self.cities[0]


class TemporaryPermitForm(CityMixin, forms.ModelForm):
    kind = "temporary"

    class Meta:
        model = TemporaryPermit
        fields = TEMPORARY_FIELDS
        field_classes = {"starts_on": dates.DateField, "ends_on": dates.DateField}
        widgets = {
            "starts_on": DateInput(),
            "ends_on": DateInput(),
            "species": forms.Textarea(attrs={"rows": 3}),
            "conditions": forms.Textarea(attrs={"rows": 5}),
        }

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.setup_city(user)
        # The service says which of these is missing, with the section.
        for name in ("species", "conditions"):
            self.fields[name].required = False

    def service_kwargs(self) -> dict:
        return {name: self.cleaned_data[name] for name in TEMPORARY_FIELDS}


class HorsePermitForm(CityMixin, forms.ModelForm):
    kind = "horse"

    class Meta:
        model = HorsePermit
        fields = APPLICATION_FIELDS
        widgets = {
            "legal_description": forms.Textarea(attrs={"rows": 3}),
            "shelter_description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.setup_city(user)
        self.fields["pasture_acres"].min_value = 0
        self.fields["pasture_acres"].widget.attrs["min"] = "0"

    def clean_pasture_acres(self):
        value = self.cleaned_data["pasture_acres"]
        if value is not None and value < 0:
            raise forms.ValidationError(_("The pasture area cannot be negative."))
        return value

    def service_kwargs(self) -> dict:
        return {name: self.cleaned_data[name] for name in APPLICATION_FIELDS}


class TemporaryDecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), choices=Decision.choices)
    decided_by_name = forms.CharField(label=_("Decided by"), max_length=200)
    decided_by_capacity = forms.CharField(label=_("In the capacity of"), max_length=200)
    decided_on = dates.PastDateField(label=_("Decided on"), widget=DateInput())
    decision_reasons = forms.CharField(
        label=_("Reasons"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class HorseChecksForm(forms.Form):
    shelter_ok = forms.BooleanField(
        label=_("Shelter keeps the animals comfortable"), required=False
    )
    grazing_ok = forms.BooleanField(label=_("Pasture can be used for grazing"), required=False)
    sanitation_ok = forms.BooleanField(label=_("Premises clean and sanitary"), required=False)
    checks_note = forms.CharField(
        label=_("Inspection notes"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class CouncilDecisionForm(forms.Form):
    council_decision = forms.ChoiceField(label=_("Council decision"), choices=Decision.choices)
    council_date = dates.PastDateField(label=_("Council meeting"), widget=DateInput())
    resolution_number = forms.CharField(label=_("Resolution"), max_length=60)
    council_reasons = forms.CharField(
        label=_("Reasons"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
