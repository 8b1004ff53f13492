"""Forms of the notice stage: the investigation, the service of the notice of intent, the
written request for a hearing, a late request's decision, the declaration's receipt.

Forms check shapes (required, dates, uploads); the services check the rules and their
refusals go next to the fields (``apply_service_errors``)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import DateInput
from base.uploads import upload_check
from dangerous_dogs.models import Criterion, Designation, DesignationCase, IncidentKind
from dangerous_dogs.services.contest import RECIPIENTS
from notices.models import ServiceMethod

UPLOAD_TYPES = ("application/pdf", "image/jpeg", "image/png")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def _text(rows=3):
    return forms.Textarea(attrs={"rows": rows})


class CaseOpenForm(forms.Form):
    incident_kind = forms.ChoiceField(label=_("What happened"), choices=IncidentKind.choices)
    occurred_at = dates.PastDateTimeField(label=_("When it happened"), widget=DateTimeInput())
    location = forms.CharField(label=_("Where it happened"), max_length=200)
    off_owner_property = forms.BooleanField(
        label=_("Off the owner's property"), required=False, initial=True
    )
    victim = forms.CharField(label=_("Person or animal harmed or threatened"), max_length=200)
    injuries = forms.CharField(label=_("Injuries"), required=False, widget=_text(2))
    witnesses = forms.CharField(label=_("Witnesses"), required=False, widget=_text(2))
    evidence = forms.CharField(label=_("Evidence"), required=False, widget=_text(2))
    evidence_file = forms.FileField(label=_("Evidence document (PDF, JPEG or PNG)"), required=False)
    criterion = forms.ChoiceField(
        label=_("Definition met (Subd. 1)"), choices=[("", "—"), *Criterion.choices]
    )
    designation = forms.ChoiceField(
        label=_("Designation intended"), choices=[("", "—"), *Designation.choices]
    )
    exempt_trespass = forms.BooleanField(
        label=DesignationCase._meta.get_field("exempt_trespass").verbose_name, required=False
    )
    exempt_provocation = forms.BooleanField(
        label=DesignationCase._meta.get_field("exempt_provocation").verbose_name, required=False
    )
    exempt_crime = forms.BooleanField(
        label=DesignationCase._meta.get_field("exempt_crime").verbose_name, required=False
    )
    exemption_findings = forms.CharField(
        label=_("Why each exemption does or does not apply"), widget=_text(3)
    )
    investigated_by_name = forms.CharField(label=_("Investigated by"), max_length=120)
    investigated_on = dates.PastDateField(label=_("Investigation completed on"), widget=DateInput())

    def clean_evidence_file(self):
        upload = self.cleaned_data.get("evidence_file")
        if upload:
            return upload_check(upload, UPLOAD_TYPES)
        return upload


class ServedForm(forms.Form):
    method = forms.ChoiceField(label=_("How it was served"))
    served_at = dates.PastDateTimeField(label=_("Served or attempted at"), widget=DateTimeInput())
    served_to = forms.CharField(
        label=_("Served on (leave blank for the owner at the owner's address)"),
        max_length=200,
        required=False,
    )
    served_by_name = forms.CharField(label=_("Served by"), max_length=120, required=False)
    posted_where = forms.CharField(
        label=_("Posted at (posting only)"), max_length=200, required=False
    )
    received_on = dates.PastDateField(
        label=_("Owner received it on (blank if not reached)"),
        required=False,
        widget=DateInput(),
    )

    def __init__(self, *args, methods=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["method"].choices = [(m, ServiceMethod(m).label) for m in methods]


class ContestForm(forms.Form):
    received_on = dates.PastDateField(label=_("Written request received on"), widget=DateInput())
    delivered_to = forms.ChoiceField(
        label=_("Delivered to"), choices=[(k, v) for k, v in RECIPIENTS.items()]
    )
    in_writing = forms.BooleanField(
        label=_("The request is in writing"), required=False, initial=True
    )


class LateContestForm(forms.Form):
    accept = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[
            ("1", _("Accept: the owner gets the hearing")),
            ("0", _("Refuse: the request is late")),
        ],
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
    )
    decided_by_name = forms.CharField(label=_("Decided by"), max_length=120)
    capacity = forms.CharField(label=_("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_("Decided on"), widget=DateInput())
    reasons = forms.CharField(label=_("Reasons"), widget=_text(3))


class DeclarationReceivedForm(forms.Form):
    received_on = dates.PastDateField(
        label=_("Owner received the declaration on"), widget=DateInput()
    )
