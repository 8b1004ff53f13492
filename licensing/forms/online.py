"""The resident's online application and the clerk's review forms: the shape of the
input only. Date rules and the counter's checks are applied by
``licensing.services.applications`` (a form that decided them would decide differently
from the counter)."""

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import CERTIFICATE_TYPES, DateInput
from base.uploads import upload_check
from licensing.forms.tendered import CashTendered
from licensing.models import OnlineApplication, PaymentMethod, RabiesVaccination

ON_FILE = "on_file"
CERTIFICATE = "certificate"


class ApplicationForm(forms.ModelForm):
    """Either the vaccination on file (offered only when it covers the term) or the new
    certificate with its file. Every typed field comes back on a refusal; only the file
    must be chosen again (a browser cannot keep a file input's value)."""

    source = forms.ChoiceField(
        label=_("Rabies vaccination"),
        widget=forms.RadioSelect,
        choices=[(CERTIFICATE, _("A new certificate from my veterinarian"))],
        initial=CERTIFICATE,
    )

    class Meta:
        model = OnlineApplication
        fields = [
            "vaccinated_on",
            "duration_years",
            "veterinarian_name",
            "veterinarian_license",
            "clinic_name",
            "rabies_tag_number",
            "certificate",
        ]
        widgets = {
            "vaccinated_on": DateInput(),
            "certificate": forms.ClearableFileInput(
                attrs={"accept": "application/pdf,image/jpeg,image/png"}
            ),
        }
        help_texts = {
            "vaccinated_on": _("As on the certificate."),
            "certificate": _("A scan or photo of the signed certificate: PDF, JPEG or PNG."),
        }
        field_classes = {"vaccinated_on": dates.PastDateField}

    def __init__(self, *args, on_file: RabiesVaccination | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.on_file = on_file
        if on_file is not None:
            self.fields["source"].choices = [
                (
                    ON_FILE,
                    _("My dog's vaccination on file (%(date)s, %(vet)s) still covers the term")
                    % {
                        "date": date_format(on_file.vaccinated_on),
                        "vet": on_file.veterinarian_name,
                    },
                ),
                *self.fields["source"].choices,
            ]
        else:
            self.fields["source"].widget = forms.HiddenInput()
        self.fields["duration_years"].choices = RabiesVaccination.Duration.choices
        self.fields["duration_years"].widget = forms.RadioSelect(
            choices=RabiesVaccination.Duration.choices
        )

    def clean_certificate(self):
        certificate = self.cleaned_data.get("certificate")
        if certificate and hasattr(certificate, "content_type"):
            if certificate.size == 0:
                raise forms.ValidationError(
                    _("The file is empty. Choose the scan or photo of the certificate again."),
                    code="empty",
                )
            return upload_check(certificate, CERTIFICATE_TYPES)
        return certificate

    def uses_on_file(self) -> bool:
        return self.on_file is not None and self.cleaned_data.get("source") == ON_FILE

    def service_kwargs(self) -> dict:
        """What the service takes: the vaccination on file, or the entered certificate
        (the new file only when one was uploaded now)."""
        if self.uses_on_file():
            return {"uses_vaccination": self.on_file}
        data = {name: self.cleaned_data.get(name) for name in self.Meta.fields}
        upload = data.pop("certificate")
        data["certificate"] = upload if hasattr(upload, "content_type") else None
        return data


class ReturnForm(forms.Form):
    reason = forms.CharField(
        label=_("What the resident must fix"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
    )


class CounterPaymentForm(CashTendered):
    method = forms.ChoiceField(label=_("Payment method"), choices=PaymentMethod.choices)
    reference = forms.CharField(
        label=_("Check number or card last 4 digits"), max_length=40, required=False
    )
    field_order = ["method", "reference", "amount_tendered"]

    def clean(self):
        data = super().clean()
        if data.get("method") in (PaymentMethod.CHECK, PaymentMethod.CARD) and not data.get(
            "reference"
        ):
            self.add_error("reference", _("Enter the check number or the card's last 4 digits."))
        return data
