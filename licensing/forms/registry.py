"""Registry forms: the shape of the input only. Date rules (not in the future, next due
after given) need today's date and live in licensing/services/registry.py."""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import dates
from base.confirm import ConfirmStep
from base.forms import CERTIFICATE_TYPES, PHOTO_TYPES, DateInput
from base.uploads import upload_check
from licensing.forms.species import add_kind_field
from licensing.models import Animal, Owner, RabiesVaccination
from licensing.services.application_rules import require_application_fields
from licensing.services.registry import clean_microchip
from ordinance.models import Jurisdiction


class OwnerForm(forms.ModelForm):
    class Meta:
        model = Owner
        fields = [
            "kind",
            "first_name",
            "last_name",
            "organization_name",
            "address_line",
            "unit",
            "city",
            "state",
            "postal_code",
            "phone",
            "email",
            "is_resident",
        ]
        widgets = {
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }

    def __init__(self, *args, jurisdictions=None, **kwargs):
        """``jurisdictions``: the cities the user may create in; a select appears only
        when there is more than one (architecture.md: no trace of other cities)."""
        super().__init__(*args, **kwargs)
        if jurisdictions is not None and len(jurisdictions) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                queryset=Jurisdiction.objects.filter(pk__in=[j.pk for j in jurisdictions]),
                label=gettext_lazy("City"),
                empty_label=gettext_lazy("Choose the city"),
            )
            self.order_fields(["jurisdiction"])

    def clean_postal_code(self):
        value = self.cleaned_data["postal_code"].strip()
        if not re.fullmatch(r"\d{5}(-\d{4})?", value):
            raise ValidationError(_("Enter a ZIP code such as 55056 or 55056-1234."))
        return value

    def clean_phone(self):
        value = self.cleaned_data["phone"].strip()
        if value and (re.search(r"[^\d\s().+/-]", value) or len(re.sub(r"\D", "", value)) < 7):
            raise ValidationError(_("Enter a phone number such as 651-555-0123."))
        return value

    def clean_state(self):
        return self.cleaned_data["state"].strip().upper()

    def clean(self):
        data = super().clean()
        if data.get("kind") == Owner.Kind.ORGANIZATION:
            if not data.get("organization_name"):
                self.add_error("organization_name", _("Enter the organization's name."))
        elif not data.get("last_name"):
            self.add_error("last_name", _("Enter the owner's last name."))
        return data


class AnimalForm(forms.ModelForm):
    class Meta:
        model = Animal
        fields = [
            "species",
            "name",
            "breed",
            "color",
            "sex",
            "sterilized",
            "date_of_birth",
            "dob_is_estimate",
            "microchip",
            "distinguishing_traits",
            "acquired_on",
            "is_service_animal",
            "is_law_enforcement",
            "photo",
        ]
        widgets = {
            "date_of_birth": DateInput(),
            "acquired_on": DateInput(),
            "distinguishing_traits": forms.Textarea(attrs={"rows": 2}),
            "microchip": forms.TextInput(attrs={"inputmode": "numeric"}),
        }
        help_texts = {
            "microchip": gettext_lazy("9, 10 or 15 digits, as the scanner reads it."),
            "photo": gettext_lazy("JPEG or PNG."),
        }
        field_classes = {"date_of_birth": dates.BirthDateField, "acquired_on": dates.PastDateField}

    def __init__(self, *args, jurisdiction=None, on=None, **kwargs):
        """``jurisdiction``: the owner's city, whose application fields (LIC-04) are
        required here, as at the counter (one answer: services/application_rules.py)."""
        super().__init__(*args, **kwargs)
        if jurisdiction is not None:
            require_application_fields(self, jurisdiction, on=on)
            add_kind_field(self, jurisdiction)  # Subd. 1(R): beside the species

    def clean_microchip(self):
        return clean_microchip(self.cleaned_data["microchip"])

    def clean_photo(self):
        photo = self.cleaned_data.get("photo")
        if photo is False:  # "clear" ticked
            return ""
        if photo and hasattr(photo, "content_type"):  # a new upload, not the stored file
            return upload_check(photo, PHOTO_TYPES)
        return photo


class VaccinationForm(forms.ModelForm):
    class Meta:
        model = RabiesVaccination
        fields = [
            "vaccinated_on",
            "duration_years",
            "next_due_on",
            "rabies_tag_number",
            "veterinarian_name",
            "veterinarian_license",
            "clinic_name",
            "clinic_address",
            "manufacturer",
            "product",
            "lot_number",
            "lot_expires_on",
            "certificate",
        ]
        widgets = {
            "vaccinated_on": DateInput(),
            "next_due_on": DateInput(),
            "lot_expires_on": DateInput(),
        }
        help_texts = {
            "next_due_on": gettext_lazy(
                "Leave blank to count the vaccine's duration from the date vaccinated."
            ),
            "certificate": gettext_lazy("PDF, JPEG or PNG scan of the signed certificate."),
        }
        field_classes = {
            "vaccinated_on": dates.PastDateField,  # no vaccination in the future
            "next_due_on": dates.DateField,
            "lot_expires_on": dates.DateField,
        }

    def clean_certificate(self):
        certificate = self.cleaned_data.get("certificate")
        if certificate and hasattr(certificate, "content_type"):
            return upload_check(certificate, CERTIFICATE_TYPES)
        return certificate or ""


class DeceasedForm(ConfirmStep):
    """Recording a death cannot be undone at the counter: the reason is asked for, and a
    confirmation step."""

    died_on = dates.PastDateField(label=gettext_lazy("Date of death"), widget=DateInput())
    note = forms.CharField(
        label=gettext_lazy("How the death was reported"),
        max_length=200,
        help_text=gettext_lazy("For example: owner called; veterinarian's letter; found dead."),
    )
