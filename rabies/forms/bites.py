"""Forms of the bite reports: the shape of the input only. The rules (dates not in
the future, the report after the bite, the animal in the city, what the city's ordinance
offers) are the services'. Uploads are checked for size and type here."""

from django import forms
from django.utils.translation import gettext_lazy as _l

from base import dates
from base.dates import DateTimeInput
from base.forms import CERTIFICATE_TYPES, DateInput
from base.uploads import upload_check
from ordinance.models import Jurisdiction
from rabies.models import (
    BiterKind,
    HearingOutcome,
    LabResult,
    ReporterKind,
    RequestedDocument,
    SalivaExposure,
    VictimKind,
)
from rabies.services.bites import HEARING_OUTCOMES
from rabies.services.testing import RESULTS

UPLOAD_HELP = _l("PDF, JPEG or PNG. If the page comes back with a problem, choose it again.")
YES_NO_UNKNOWN = [("", _l("Not known")), ("true", _l("Yes")), ("false", _l("No"))]


class UploadField(forms.FileField):
    def __init__(self, *, label, required=True):
        super().__init__(label=label, required=required, help_text=UPLOAD_HELP)

    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if upload:
            return upload_check(upload, CERTIFICATE_TYPES)
        return upload


def _text(label, required=True, rows=None, max_length=None, help_text=""):
    widget = forms.Textarea(attrs={"rows": rows}) if rows else None
    return forms.CharField(
        label=label, required=required, widget=widget, max_length=max_length, help_text=help_text
    )


def _yes_no(label):
    return forms.TypedChoiceField(
        label=label,
        choices=YES_NO_UNKNOWN,
        required=False,
        coerce=lambda v: v == "true",
        empty_value=None,
    )


class BiteReportForm(forms.Form):
    reporter_kind = forms.ChoiceField(label=_l("Reported by"), choices=ReporterKind.choices)
    reporter_name = _text(_l("Reporter's name"), max_length=160)
    reporter_phone = _text(_l("Reporter's phone"), False, max_length=40)
    reported_at = dates.PastDateTimeField(label=_l("Reported at"), widget=DateTimeInput())
    diagnosis = _text(
        _l("Veterinarian's diagnosis"),
        False,
        rows=2,
        help_text=_l("For a veterinarian's report of a rabies suspect."),
    )
    bitten_at = dates.PastDateTimeField(
        label=_l("Date and time of the bite"), widget=DateTimeInput()
    )
    bitten_where = _text(_l("Where"), max_length=200)
    victim_kind = forms.ChoiceField(
        label=_l("Who was bitten"), choices=VictimKind.choices, widget=forms.RadioSelect
    )
    victim_name = _text(_l("Victim's name"), False, max_length=160)
    victim_address = _text(_l("Victim's address"), False, max_length=300)
    victim_phone = _text(_l("Victim's phone"), False, max_length=40)
    victim_animal = forms.IntegerField(
        label=_l("ID of the animal bitten"),
        required=False,
        min_value=1,
        help_text=_l("For an animal bitten: its ID in the registry."),
    )
    skin_broken = _yes_no(_l("Skin broken"))
    saliva_exposure = forms.ChoiceField(label=_l("Saliva exposure"), choices=SalivaExposure.choices)
    injuries = _text(_l("Injuries"), False, rows=2)
    treated_by = _text(_l("Treated by"), False, max_length=200)
    provoked = _yes_no(_l("Provoked"))
    provocation = _text(_l("What provoked it"), False, rows=2)
    biter_kind = forms.ChoiceField(
        label=_l("Biting animal"), choices=BiterKind.choices, widget=forms.RadioSelect
    )
    animal = forms.IntegerField(
        label=_l("ID of the registered animal"),
        required=False,
        min_value=1,
        help_text=_l("Its ID in the registry (open the report from the animal's page to fill it)."),
    )
    biter_species = _text(_l("Species (stray or wild)"), False, max_length=60)
    biter_description = _text(_l("Description"), False, rows=2)
    biter_owner_name = _text(_l("Owner's name, if known"), False, max_length=160)
    biter_owner_address = _text(_l("Owner's address, if known"), False, max_length=300)

    def __init__(self, *args, jurisdictions=None, **kwargs):
        super().__init__(*args, **kwargs)
        if jurisdictions is not None and len(jurisdictions) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                queryset=Jurisdiction.objects.filter(pk__in=[j.pk for j in jurisdictions]),
                label=_l("City"),
                empty_label=_l("Choose the city"),
                required=False,
                help_text=_l("Not needed when the biting animal is registered."),
            )
            self.order_fields(["jurisdiction"])


class DocumentRequestForm(forms.Form):
    kind = forms.ChoiceField(label=_l("Document"), choices=RequestedDocument.choices)
    why_warranted = _text(_l("Why it is warranted"), max_length=300)
    requested_on = dates.PastDateField(label=_l("Requested on"), widget=DateInput())


class DocumentReceivedForm(forms.Form):
    received_on = dates.PastDateField(label=_l("Received on"), widget=DateInput())
    file = UploadField(label=_l("The document"))
    note = _text(_l("Note"), False, max_length=300)


class BiteDecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_l("Decision"), choices=())
    reasons = _text(_l("Reasons"), rows=3)
    destroyed_on = dates.PastDateField(
        label=_l("Humanely destroyed on"), widget=DateInput(), required=False
    )
    submitted_on = dates.PastDateField(
        label=_l("Submitted to the laboratory on"), widget=DateInput(), required=False
    )
    laboratory = _text(_l("Laboratory"), False, max_length=200)
    specimen_reference = _text(_l("Laboratory reference"), False, max_length=80)
    owner_known = forms.BooleanField(
        label=_l("The owner is known (a notice of the hearing is issued)"),
        required=False,
        initial=True,
    )
    scheduled_for = dates.DateTimeField(
        label=_l("Hearing date and time"), widget=DateTimeInput(), required=False
    )
    place = _text(_l("Place of the hearing"), False, max_length=200)

    def __init__(self, *args, offers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["decision"].choices = [(o.decision.value, o.label) for o in offers if o.offered]


class LabSubmitForm(forms.Form):
    destroyed_on = dates.PastDateField(label=_l("Humanely euthanized on"), widget=DateInput())
    submitted_on = dates.PastDateField(
        label=_l("Submitted to the laboratory on"), widget=DateInput()
    )
    laboratory = _text(_l("Laboratory"), False, max_length=200)
    specimen_reference = _text(_l("Laboratory reference"), False, max_length=80)


class LabResultForm(forms.Form):
    result = forms.ChoiceField(
        label=_l("Result"), choices=[(r.value, r.label) for r in map(LabResult, RESULTS)]
    )
    result_on = dates.PastDateField(label=_l("Result received on"), widget=DateInput())
    result_file = UploadField(label=_l("Laboratory report"))


class HearingWaiverForm(forms.Form):
    waived_on = dates.PastDateField(label=_l("Hearing waived on"), widget=DateInput())
    waiver_file = UploadField(label=_l("Owner's signed waiver"))


class HearingDecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_l("Decision"),
        choices=[(o.value, o.label) for o in map(HearingOutcome, HEARING_OUTCOMES)],
    )
    examiner_name = _text(_l("Hearing Examiner"), max_length=160)
    held_on = dates.PastDateField(
        label=_l("Hearing held on (blank if waived)"), widget=DateInput(), required=False
    )
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput())
    reasons = _text(_l("Reasons"), rows=3)
    factor_species = _text(_l("The species"), False, rows=1)
    factor_circumstances = _text(_l("The circumstances of the bite"), False, rows=1)
    factor_epidemiology = _text(_l("Rabies in the area"), False, rows=1)
    factor_shedding = _text(_l("The virus-shedding period, if known"), False, rows=1)
