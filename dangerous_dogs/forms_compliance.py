"""Forms of the compliance, registration, seizure and reclaim steps: the shape of the input
only; the rules are the services' (dangerous_dogs/services/)."""

from datetime import timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import dates
from base.dates import DateTimeInput
from base.forms import CERTIFICATE_TYPES, PHOTO_TYPES, DateInput
from base.uploads import upload_check
from dangerous_dogs.models import ComplianceProof, CoverageKind, Requirement
from dangerous_dogs.services.seizure import GROUNDS
from impound.forms import PLACED_AT_MAX_DAYS_BACK
from impound.models import Pound
from licensing.forms.counter import CashPaymentForm
from licensing.forms.tendered import licensed_answer
from licensing.services.registry import clean_microchip

YES_NO = [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]


def _field(name, **kwargs):
    return ComplianceProof._meta.get_field(name).formfield(**kwargs)


class ProofForm(forms.Form):
    """The fields of one requirement's proof (DD-10); ``requirement`` picks them."""

    FIELDS = {
        Requirement.ENCLOSURE: ("verified_on", "details", "document"),
        Requirement.COVERAGE: (
            "verified_on",
            "coverage_kind",
            "issuer",
            "policy_number",
            "amount",
            "expires_on",
            "document",
            "details",
        ),
        Requirement.MICROCHIP: (
            "verified_on",
            "microchip",
            "microchip_manufacturer",
            "implanted_on",
            "veterinarian",
            "details",
        ),
    }

    verified_on = dates.PastDateField(label=gettext_lazy("Verified on"), widget=DateInput())
    details = forms.CharField(
        label=gettext_lazy("What was shown or seen"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    document = forms.FileField(
        label=gettext_lazy("Photo or document"),
        required=False,
        help_text=gettext_lazy(
            "PDF, JPEG or PNG. If the page comes back with a problem, choose it again."
        ),
    )
    coverage_kind = forms.ChoiceField(
        label=gettext_lazy("Coverage"), choices=CoverageKind.choices, widget=forms.RadioSelect
    )
    issuer = _field("issuer")
    policy_number = _field("policy_number")
    amount = forms.DecimalField(
        label=gettext_lazy("Amount ($)"), max_digits=12, decimal_places=2, min_value=0
    )
    expires_on = dates.DateField(label=gettext_lazy("Expires on"), widget=DateInput())
    microchip = _field(
        "microchip",
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
        help_text=gettext_lazy("9, 10 or 15 digits, as the scanner reads it."),
    )
    microchip_manufacturer = _field("microchip_manufacturer")
    implanted_on = dates.PastDateField(label=gettext_lazy("Implanted on"), widget=DateInput())
    veterinarian = _field("veterinarian")

    def __init__(self, *args, requirement: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.requirement = requirement
        keep = self.FIELDS[requirement]
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        self.fields["verified_on"].initial = timezone.localdate()
        if requirement == Requirement.ENCLOSURE:
            self.fields["details"].required = True
            self.fields["details"].label = gettext_lazy(
                "The proper enclosure and the warning sign with the warning symbol, as seen"
            )
            self.fields["document"].required = True
            self.fields["document"].label = gettext_lazy("Photo of the enclosure and the sign")
            self.fields["document"].help_text = gettext_lazy(
                "JPEG or PNG. If the page comes back with a problem, choose it again."
            )
        for name in ("issuer", "policy_number", "microchip", "microchip_manufacturer"):
            if name in self.fields:
                self.fields[name].required = True
        if "veterinarian" in self.fields:
            self.fields["veterinarian"].required = True

    def clean_document(self):
        document = self.cleaned_data.get("document")
        if document and hasattr(document, "content_type"):
            types = PHOTO_TYPES if self.requirement == Requirement.ENCLOSURE else CERTIFICATE_TYPES
            return upload_check(document, types)
        return document or None

    def clean_microchip(self):
        return clean_microchip(self.cleaned_data["microchip"])

    def service_values(self) -> dict:
        data = dict(self.cleaned_data)
        verified_on = data.pop("verified_on")
        return {"verified_on": verified_on, **data}


class DestroyedForm(forms.Form):
    on = dates.PastDateField(label=gettext_lazy("Destroyed on"), widget=DateInput())
    veterinarian = forms.CharField(label=gettext_lazy("Veterinarian"), max_length=160)


class FeePaymentForm(CashPaymentForm):
    """The registration fee at the counter: method and reference (no tag)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["tag_number"]


class ReclaimForm(FeePaymentForm):
    licensed = forms.ChoiceField(
        label=gettext_lazy("Is the dog licensed?"),
        choices=YES_NO,
        widget=forms.RadioSelect,
        required=False,
    )

    def __init__(self, *args, ask_licensed: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not ask_licensed:
            del self.fields["licensed"]
        else:
            self.fields["licensed"].required = True

    def licensed_value(self):
        return licensed_answer(self.cleaned_data)


class SeizeForm(forms.Form):
    ground = forms.ChoiceField(
        label=gettext_lazy("Ground for seizure"), choices=GROUNDS, widget=forms.RadioSelect
    )
    ground_detail = forms.CharField(
        label=gettext_lazy("Facts of the breach (where, when, what was seen)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(), label=gettext_lazy("Pound"), empty_label=None
    )
    placed_at = dates.PastDateTimeField(
        label=gettext_lazy("Placed in the pound at"),
        widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
    )
    seized_where = forms.CharField(label=gettext_lazy("Where seized"), max_length=200)

    def __init__(self, *args, jurisdiction, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pound"].queryset = Pound.objects.filter(jurisdictions=jurisdiction)
        self.fields["placed_at"].initial = timezone.localtime().replace(second=0, microsecond=0)

    def clean_placed_at(self):
        value = self.cleaned_data["placed_at"]
        now = timezone.now()
        if value > now + timedelta(minutes=1):
            raise ValidationError(_("The time of placement cannot be in the future."))
        if value < now - timedelta(days=PLACED_AT_MAX_DAYS_BACK):
            raise ValidationError(
                _("Enter a time within the last %(days)s days; check the year.")
                % {"days": PLACED_AT_MAX_DAYS_BACK}
            )
        return min(value, now)
