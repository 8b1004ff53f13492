"""Forms of the quarantine steps: the shape of the input only; the rules are the
services' (``rabies.services.quarantine``)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy

from base import dates
from base.dates import DateTimeInput
from base.forms import CERTIFICATE_TYPES, DateInput
from base.uploads import upload_check
from impound.models import Pound
from rabies.models import InspectionKind, QuarantinePlace

YES_NO = [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]
DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]


def serving_pounds(jurisdiction):
    today = timezone.localdate()
    return (
        Pound.objects.filter(jurisdictions=jurisdiction, designated_from__lte=today)
        .exclude(designated_until__lt=today)
        .order_by("name")
    )


class OrderForm(forms.Form):
    place = forms.ChoiceField(
        label=gettext_lazy("Where the animal is confined"),
        choices=QuarantinePlace.choices,
        widget=forms.RadioSelect,
    )
    consent_by_name = forms.CharField(
        label=gettext_lazy("Confinement at home authorized by (officer)"),
        max_length=160,
        required=False,
    )
    consent_on = dates.PastDateField(
        label=gettext_lazy("Authorized on"), required=False, widget=DateInput()
    )
    home_address = forms.CharField(
        label=gettext_lazy("Place of confinement"),
        max_length=300,
        required=False,
        help_text=gettext_lazy("The owner's address if left blank."),
    )
    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(),
        label=gettext_lazy("Pound (confinement at the facility)"),
        required=False,
    )
    enclosure_approved_by = forms.CharField(
        label=gettext_lazy("Animal-tight enclosure approved by (optional)"),
        max_length=160,
        required=False,
    )
    enclosure_approved_on = dates.PastDateField(
        label=gettext_lazy("Enclosure approved on (optional)"), required=False, widget=DateInput()
    )

    def __init__(self, *args, jurisdiction, home_allowed=True, show_enclosure=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pound"].queryset = serving_pounds(jurisdiction)
        if not home_allowed:
            self.fields["place"].initial = QuarantinePlace.FACILITY
        if not show_enclosure:
            del self.fields["enclosure_approved_by"]
            del self.fields["enclosure_approved_on"]


class InspectionForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("What is recorded"),
        choices=InspectionKind.choices,
        initial=InspectionKind.INSPECTION,
        widget=forms.RadioSelect,
    )
    at = dates.PastDateTimeField(
        label=gettext_lazy("Date and time"), widget=DateTimeInput(), input_formats=DATETIME_FORMATS
    )
    inspector_name = forms.CharField(label=gettext_lazy("Inspected or reported by"), max_length=160)
    checks = forms.MultipleChoiceField(
        label=gettext_lazy("Conditions found kept"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    compliant = forms.ChoiceField(
        label=gettext_lazy("Kept as the order requires"),
        choices=YES_NO,
        initial="yes",
        widget=forms.RadioSelect,
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, conditions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["checks"].choices = [
            (c["text"], f"{c['text']} ({c['citation']})") for c in conditions
        ]
        self.fields["at"].initial = timezone.localtime().replace(second=0, microsecond=0)

    def values(self) -> dict:
        data = dict(self.cleaned_data)
        data["compliant"] = data["compliant"] == "yes"
        return data


class FacilityForm(forms.Form):
    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(), label=gettext_lazy("Pound"), empty_label=None
    )
    reason = forms.CharField(
        label=gettext_lazy("Why it is moved"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, jurisdiction, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pound"].queryset = serving_pounds(jurisdiction)


class ExamForm(forms.Form):
    examined_on = dates.PastDateField(label=gettext_lazy("Examined on"), widget=DateInput())
    examiner_name = forms.CharField(label=gettext_lazy("Examined by"), max_length=160)
    examiner_capacity = forms.ChoiceField(
        label=gettext_lazy("In the capacity of"), widget=forms.RadioSelect
    )
    clinical_signs = forms.ChoiceField(
        label=gettext_lazy("Clinical signs of rabies"), choices=YES_NO, widget=forms.RadioSelect
    )
    notes = forms.CharField(
        label=gettext_lazy("Notes"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, capacities=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["examiner_capacity"].choices = [(c, c) for c in capacities]
        self.fields["examined_on"].initial = timezone.localdate()

    def values(self) -> dict:
        data = dict(self.cleaned_data)
        data["clinical_signs"] = data["clinical_signs"] == "yes"
        return data


class PermissionForm(forms.Form):
    signer_name = forms.CharField(label=gettext_lazy("Signed by"), max_length=160)
    capacity = forms.ChoiceField(label=gettext_lazy("In the capacity of"), widget=forms.RadioSelect)
    permission_on = dates.PastDateField(label=gettext_lazy("Dated"), widget=DateInput())
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300)

    def __init__(self, *args, signers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["capacity"].choices = [(s, s) for s in signers]
        self.fields["permission_on"].initial = timezone.localdate()


class ReportForm(forms.Form):
    """The veterinarian's report and the dates each recipient received it; a part already
    recorded is left out (``has_report``), so each date can come on its own day."""

    veterinarian = forms.CharField(label=gettext_lazy("Veterinarian"), max_length=160)
    inspected_on = dates.PastDateField(label=gettext_lazy("Inspected on"), widget=DateInput())
    no_signs = forms.BooleanField(
        label=gettext_lazy("The report states that no signs of rabies were observed"),
        required=False,
    )
    report_file = forms.FileField(
        label=gettext_lazy("The written report"),
        help_text=gettext_lazy(
            "PDF, JPEG or PNG. If the page comes back with a problem, choose it again."
        ),
    )
    received_by_officer_on = dates.PastDateField(required=False, widget=DateInput())
    received_by_board_on = dates.PastDateField(required=False, widget=DateInput())

    def __init__(self, *args, has_report=False, recipients=(), done=(), **kwargs):
        super().__init__(*args, **kwargs)
        if has_report:
            for name in ("veterinarian", "inspected_on", "no_signs", "report_file"):
                del self.fields[name]
        names = list(recipients) or ["", ""]
        for field, who in zip(
            ("received_by_officer_on", "received_by_board_on"), (names[0], names[-1]), strict=True
        ):
            if field in done:
                del self.fields[field]
            else:
                self.fields[field].label = gettext_lazy("Received by %(who)s on") % {"who": who}

    def clean_report_file(self):
        upload = self.cleaned_data.get("report_file")
        if upload:
            return upload_check(upload, CERTIFICATE_TYPES)
        return upload
