"""Forms of the exposure case (Glencoe 701 Subd. 22): the shape of the input only; the
rules (paths, periods, release conditions) are the services'."""

from django import forms
from django.utils.translation import gettext_lazy as _l

from base import dates
from base.forms import DateInput
from base.uploads import upload_check
from rabies.models import HearingOutcome, RabidBasis

UPLOAD_TYPES = ("application/pdf", "image/jpeg", "image/png")
UPLOAD_HELP = _l("PDF, JPEG or PNG. If the page comes back with a problem, choose it again.")


class UploadField(forms.FileField):
    def __init__(self, *, label, required=False):
        super().__init__(label=label, required=required, help_text=UPLOAD_HELP)

    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if upload:
            return upload_check(upload, UPLOAD_TYPES)
        return upload


def _text(label, *, required=True, max_length=300, rows=None, help_text=""):
    widget = forms.Textarea(attrs={"rows": rows}) if rows else None
    return forms.CharField(
        label=label, required=required, max_length=max_length, widget=widget, help_text=help_text
    )


def _date(label, *, required=True, help_text=""):
    return dates.PastDateField(
        label=label, required=required, widget=DateInput(), help_text=help_text
    )


class ExposureOpenForm(forms.Form):
    exposed_on = _date(_l("Date of the exposure"))
    how_exposed = _text(_l("How the animal was exposed"), rows=2)
    rabid_species = _text(
        _l("The rabid animal's species"),
        max_length=60,
        help_text=_l("A listed species is deemed rabid when it bites a dog or cat."),
    )
    rabid_basis = forms.ChoiceField(
        label=_l("Rabid because"), choices=RabidBasis.choices, widget=forms.RadioSelect
    )
    rabid_basis_detail = _text(
        _l("Details: the veterinarian or laboratory, and what was found"), required=False
    )

    def __init__(self, *args, deemed=(), **kwargs):
        super().__init__(*args, **kwargs)
        # The deemed species offered as suggestions (a datalist), not a closed list.
        self.fields["rabid_species"].widget.attrs["list"] = "deemed-species"
        self.deemed = list(deemed)


class BoardSentForm(forms.Form):
    sent_on = _date(_l("Sent on"))
    sent_how = _text(_l("Sent how (e-mail, fax, mail)"), max_length=120)


class RevaccinateForm(forms.Form):
    revaccinated_on = _date(_l("Revaccinated on"))
    location = _text(_l("Where it is kept"), required=False)


class _QuarantineFields(forms.Form):
    euthanized_on = _date(_l("Euthanized on"), required=False)
    starts_on = _date(_l("Quarantine began on"), required=False)
    supervising_veterinarian = _text(_l("Supervising veterinarian"), required=False, max_length=160)
    location = _text(_l("Where the animal-tight enclosure is"), required=False)


class ConsentForm(_QuarantineFields):
    consent = forms.TypedChoiceField(
        label=_l("The owner"),
        choices=(
            ("yes", _l("consents to euthanasia")),
            ("no", _l("refuses: quarantine under a veterinarian")),
        ),
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    consent_on = _date(_l("Signed on"))
    consent_by_name = _text(_l("Owner who signed"), max_length=160)
    consent_file = UploadField(label=_l("Signed consent or refusal"), required=True)

    field_order = ["consent", "consent_on", "consent_by_name", "consent_file"]


class DetermineForm(forms.Form):
    determined_by = _text(_l("Veterinarian"), max_length=160)
    determined_on = _date(_l("Determined on"))


class DisposeForm(_QuarantineFields):
    euthanize = forms.TypedChoiceField(
        label=_l("Disposition"),
        choices=(
            ("yes", _l("Humanely euthanized")),
            ("no", _l("Quarantined under a veterinarian")),
        ),
        coerce=lambda v: v == "yes",
        widget=forms.RadioSelect,
    )
    field_order = ["euthanize"]


class PrereleaseVaccinationForm(forms.Form):
    vaccinated_on = _date(_l("Vaccinated on"))


class ReleaseReportForm(forms.Form):
    report_veterinarian = _text(_l("Veterinarian"), max_length=160)
    report_inspected_on = _date(_l("Inspected on"))
    report_no_signs = forms.BooleanField(
        label=_l("The report states that no signs of rabies were observed"), required=False
    )
    report_file = UploadField(label=_l("The written report"))
    report_received_by_officer_on = _date(
        _l("Received by the animal control officer on"), required=False
    )
    report_received_by_board_on = _date(
        _l("Received by the Board of Animal Health on"), required=False
    )


class ReleaseForm(forms.Form):
    released_on = _date(_l("Released on"))


class NoncomplianceForm(forms.Form):
    noted_on = _date(_l("Noted on"))
    details = _text(_l("What the owner did not comply with"), rows=2)
    owner_known = forms.BooleanField(
        label=_l("The owner is known (a notice is issued)"), required=False, initial=True
    )
    scheduled_for = dates.DateTimeField(
        label=_l("Hearing date and time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    place = _text(_l("Place of the hearing"), required=False, max_length=200)


class WaiverForm(forms.Form):
    waived_on = _date(_l("Waived on"))
    waiver_file = UploadField(label=_l("Signed waiver"), required=True)


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_l("Decision"),
        choices=[(c.value, c.label) for c in (HearingOutcome.EUTHANIZE, HearingOutcome.CONTINUE)],
        widget=forms.RadioSelect,
    )
    examiner_name = _text(_l("Hearing Examiner"), max_length=160)
    held_on = _date(_l("Hearing held on (blank if waived)"), required=False)
    decided_on = _date(_l("Decided on"))
    reasons = _text(_l("Reasons"), rows=3, max_length=None)
    factor_species = _text(_l("The species"), required=False, rows=2, max_length=None)
    factor_circumstances = _text(
        _l("The circumstances of the bite"), required=False, rows=2, max_length=None
    )
    factor_epidemiology = _text(_l("Rabies in the area"), required=False, rows=2, max_length=None)
    factor_shedding = _text(
        _l("The virus-shedding period, if known"), required=False, rows=2, max_length=None
    )
    euthanized_on = _date(_l("Euthanized on (if the decision is euthanasia)"), required=False)
