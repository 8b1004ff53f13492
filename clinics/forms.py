"""The certificate form (NASPHV Form 51 fields) and the CSV batch form. The CSV's rows are
checked by this same form, so a row's error reads as the form's would."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.forms import CERTIFICATE_TYPES, DateInput
from base.uploads import upload_check, upload_read_text
from licensing.forms.counter import MAX_TAG_NUMBER, add_term_choice
from licensing.models.registry import Sex, Species
from licensing.services.registry import clean_microchip
from ordinance.models import Jurisdiction

from .models import CertificateSubmission, Clinic, ReconciliationKind

FORM51_FIELDS = [
    "owner_first_name",
    "owner_last_name",
    "owner_address",
    "owner_city",
    "owner_postal_code",
    "owner_phone",
    "animal_name",
    "species",
    "breed",
    "color",
    "sex",
    "microchip",
    "vaccinated_on",
    "duration_years",
    "next_due_on",
    "manufacturer",
    "product",
    "lot_number",
    "lot_expires_on",
    "rabies_tag_number",
    "veterinarian_name",
    "veterinarian_license",
]


def _city_field(cities):
    return forms.ModelChoiceField(
        queryset=Jurisdiction.objects.filter(pk__in=[c.pk for c in cities]),
        label=gettext_lazy("City"),
        empty_label=gettext_lazy("Choose the city"),
    )


class CertificateForm(forms.ModelForm):
    species = forms.ChoiceField(label=gettext_lazy("species"), choices=Species.choices)
    sex = forms.ChoiceField(
        label=gettext_lazy("sex"), choices=[("", "---------"), *Sex.choices], required=False
    )

    class Meta:
        model = CertificateSubmission
        fields = FORM51_FIELDS
        widgets = {
            "vaccinated_on": DateInput(),
            "next_due_on": DateInput(),
            "lot_expires_on": DateInput(),
        }

    def __init__(self, *args, clinic, cities=(), with_file=False, **kwargs):
        """``cities``: a city select shows when the clinic serves more than one;
        ``with_file``: the signed certificate's upload (the one-at-a-time form)."""
        super().__init__(*args, **kwargs)
        self.clinic = clinic
        self.licenses = {v.license_number.upper(): v for v in clinic.active_veterinarians}
        if len(cities) > 1:
            self.fields["jurisdiction"] = _city_field(cities)
            self.order_fields(["jurisdiction"])
        if with_file:
            self.fields["certificate"] = forms.FileField(
                label=gettext_lazy("signed certificate (PDF, JPEG or PNG)")
            )

    def clean_microchip(self):
        return clean_microchip(self.cleaned_data["microchip"])

    def clean_veterinarian_license(self):
        # RAB-05: given by a licensed veterinarian; the clinic's own veterinarians only.
        value = self.cleaned_data["veterinarian_license"].strip()
        if value.upper() not in self.licenses:
            raise forms.ValidationError(
                _(
                    "“%(value)s” is not the license number of a veterinarian of %(clinic)s. "
                    "Ask the city to add the veterinarian to your clinic."
                )
                % {"value": value, "clinic": self.clinic.name},
                code="veterinarian",
            )
        return self.licenses[value.upper()].license_number

    def clean_certificate(self):
        return upload_check(self.cleaned_data["certificate"], CERTIFICATE_TYPES)


class BatchForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file of certificates"))

    def __init__(self, *args, cities=(), **kwargs):
        super().__init__(*args, **kwargs)
        if len(cities) > 1:
            self.fields["jurisdiction"] = _city_field(cities)
            self.order_fields(["jurisdiction"])

    def clean_file(self):
        return upload_read_text(self.cleaned_data["file"])


class RejectForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why it is rejected"), max_length=300)


class DeactivateForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=200, required=False, strip=True)


class ConfirmForm(forms.Form):
    animal = forms.IntegerField(widget=forms.HiddenInput)


class InviteForm(forms.Form):
    email = forms.EmailField(label=gettext_lazy("E-mail address"))
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=150)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=150)


class FollowUpRunForm(forms.Form):
    """Run the vaccinated-but-unlicensed follow-up: for all the user's
    cities, or one of them where they serve several (no picker for a one-city user)."""

    def __init__(self, *args, cities=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.cities = list(cities)
        if len(self.cities) > 1:
            self.fields["city"] = forms.TypedChoiceField(
                label=gettext_lazy("City"),
                choices=[("", gettext_lazy("All my cities"))]
                + [(c.pk, c.name) for c in self.cities],
                coerce=int,
                empty_value=None,
                required=False,
            )

    def chosen(self) -> list:
        """The cities to run for (the form must be valid)."""
        pk = self.cleaned_data.get("city")
        return [c for c in self.cities if pk is None or c.pk == pk]


# --- Licenses sold at the clinic --------------------------------------

TAG_NUMBER = {"min_value": 1, "max_value": MAX_TAG_NUMBER}


class ConsignmentForm(forms.Form):
    """A block of the city's tags for a clinic: the clinics serving the user's cities."""

    clinic = forms.ModelChoiceField(
        queryset=Clinic.objects.none(),
        label=gettext_lazy("Clinic"),
        empty_label=gettext_lazy("Choose the clinic"),
    )
    year = forms.IntegerField(
        label=gettext_lazy("Year stamped on the tags"), min_value=2000, max_value=2100
    )
    first_number = forms.IntegerField(label=gettext_lazy("First tag number"), **TAG_NUMBER)
    last_number = forms.IntegerField(label=gettext_lazy("Last tag number"), **TAG_NUMBER)
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)

    def __init__(self, *args, clinics, cities, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["clinic"].queryset = clinics
        if len(cities) > 1:
            self.fields["jurisdiction"] = _city_field(cities)
            self.order_fields(["jurisdiction", "clinic"])
        self.single_city = cities[0] if len(cities) == 1 else None

    def clean(self):
        data = super().clean()
        first, last = data.get("first_number"), data.get("last_number")
        if first and last and last < first:
            self.add_error("last_number", _("The last number must not be below the first."))
        return data

    def chosen_city(self):
        return self.cleaned_data.get("jurisdiction") or self.single_city


class ReconcileForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("What happened"),
        choices=ReconciliationKind.choices,
        widget=forms.RadioSelect,
    )
    first_number = forms.IntegerField(label=gettext_lazy("First tag number"), **TAG_NUMBER)
    last_number = forms.IntegerField(
        label=gettext_lazy("Last tag number"),
        required=False,
        help_text=gettext_lazy("Leave empty for one tag."),
        **TAG_NUMBER,
    )
    reason = forms.CharField(label=gettext_lazy("Why"), max_length=200)

    def clean(self):
        data = super().clean()
        first, last = data.get("first_number"), data.get("last_number")
        if first and not last:
            data["last_number"] = first
        elif first and last and last < first:
            self.add_error("last_number", _("The last number must not be below the first."))
        return data


class SaleSearchForm(forms.Form):
    q = forms.CharField(
        label=gettext_lazy("Animal or owner's last name"), max_length=80, required=False
    )


class SaleForm(forms.Form):
    """The clinic's sale: the tag in hand (or the next one it holds) and that the fee
    was collected at the clinic. No card or payment details: the clinic keeps those."""

    tag_number = forms.IntegerField(
        label=gettext_lazy("Tag number in hand"),
        required=False,
        help_text=gettext_lazy("Leave empty to use the lowest unsold tag your clinic holds."),
        **TAG_NUMBER,
    )
    collected = forms.BooleanField(
        label=gettext_lazy("The clinic collected the fee shown for the city."),
        error_messages={"required": gettext_lazy("Collect the fee first, then confirm it here.")},
    )

    def __init__(self, *args, terms=None, **kwargs):
        super().__init__(*args, **kwargs)
        add_term_choice(self, terms)


class BalanceForm(forms.Form):
    year = forms.IntegerField(label=gettext_lazy("Year"), min_value=2000, max_value=2100)
