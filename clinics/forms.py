"""The certificate form (NASPHV Form 51 fields) and the CSV batch form. The CSV's rows are
checked by this same form, so a row's error reads as the form's would (issue 18)."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base.uploads import upload_read_text
from licensing.forms.registry import CERTIFICATE_TYPES, DateInput, check_upload
from licensing.models.registry import Sex, Species
from licensing.services.registry import clean_microchip
from ordinance.models import Jurisdiction

from .models import CertificateSubmission

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
        return check_upload(self.cleaned_data["certificate"], CERTIFICATE_TYPES)


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
    """Run the vaccinated-but-unlicensed follow-up (issue 18 item 3): for all the user's
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
