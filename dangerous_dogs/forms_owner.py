"""Forms of part D: the owner's reports, sterilization, review, charges, summary destruction.

The shape of the input only; the rules (deadlines, eligibility, the hearing before a
destruction) are the services'. Uploads are checked for size and type here.
"""

from django import forms
from django.utils.translation import gettext_lazy as _l

from base import dates
from base.forms import DateInput
from base.uploads import upload_check
from dangerous_dogs.models import ChargeOutcome, DestructionGround, ReportKind
from licensing.models import Owner

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


def _text(label, required=True, rows=None, max_length=None):
    widget = forms.Textarea(attrs={"rows": rows}) if rows else None
    return forms.CharField(label=label, required=required, widget=widget, max_length=max_length)


class ReportForm(forms.Form):
    kind = forms.ChoiceField(label=_l("The owner reports"), choices=ReportKind.choices)
    event_on = dates.PastDateField(
        label=_l("Date of the death, transfer, sale, or disclosure"), widget=DateInput()
    )
    notified_on = dates.PastDateField(label=_l("Written notice received on"), widget=DateInput())
    circumstances = _text(_l("Circumstances and disposition"), required=False, rows=2)
    party_name = _text(_l("Transferee, buyer or property owner"), False, max_length=160)
    party_address = _text(_l("Their address (for a lease: the property)"), False, max_length=300)
    party_phone = _text(_l("Their telephone"), False, max_length=40)
    buyer_informed = forms.BooleanField(
        label=_l("The seller told the buyer the dog was identified as dangerous"), required=False
    )
    buyer_in_city = forms.BooleanField(
        label=_l("The buyer lives in the city (choose the buyer below)"), required=False
    )
    buyer = forms.ModelChoiceField(
        queryset=Owner.objects.none(),
        required=False,
        label=_l("Buyer in the registry"),
        widget=forms.RadioSelect,
    )
    lease_term = _text(_l("Lease term"), False, max_length=120)

    def __init__(self, *args, buyers=None, **kwargs):
        super().__init__(*args, **kwargs)
        if buyers is not None:
            self.fields["buyer"].queryset = buyers
            self.fields["buyer"].label_from_instance = lambda o: f"{o.name}, {o.address}"


class AffidavitRequestForm(forms.Form):
    on = dates.PastDateField(label=_l("Affidavit requested on"), widget=DateInput())


class AffidavitForm(forms.Form):
    received_on = dates.PastDateField(label=_l("Affidavit received on"), widget=DateInput())
    file = UploadField(label=_l("Signed affidavit under oath"), required=True)


class SterilizationOrderForm(forms.Form):
    ordered_on = dates.PastDateField(label=_l("Ordered on"), widget=DateInput())


class SterilizationDoneForm(forms.Form):
    done_on = dates.PastDateField(label=_l("Sterilized on"), widget=DateInput())
    veterinarian = _text(_l("Veterinarian"), max_length=160)
    certificate = UploadField(label=_l("Veterinarian's statement"))
    by_authority = forms.BooleanField(
        label=_l("Done by the authority at the owner's expense"), required=False
    )


REASON_CHOICES = [
    ("age", _l("Age")),
    ("neutering", _l("Neutering")),
    ("environment", _l("Environment")),
    ("training", _l("Obedience training that includes modifying aggressive behavior")),
]


class ReviewRequestForm(forms.Form):
    requested_on = dates.PastDateField(label=_l("Requested on"), widget=DateInput())
    reasons = forms.MultipleChoiceField(
        label=_l("The dog's behavior changed because of"),
        choices=REASON_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    other = _text(_l("Other factors"), False, max_length=200)
    evidence = _text(_l("Evidence of changed behavior"), rows=3)
    evidence_file = UploadField(label=_l("Evidence document"))


class DecisionFields(forms.Form):
    decided_by_name = _text(_l("Decided by"), max_length=120)
    capacity = _text(_l("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput())
    reasons = _text(_l("Reasons"), rows=3)


class ReviewDecideForm(DecisionFields):
    outcome = forms.ChoiceField(
        label=_l("Decision"),
        choices=[("uphold", _l("Uphold the designation")), ("rescind", _l("Rescind it"))],
    )
    field_order = ["outcome"]


class ChargeForm(forms.Form):
    charged_on = dates.PastDateField(label=_l("Charged on"), widget=DateInput())
    offence = _text(_l("Offence and section"), max_length=200)


class ChargeDecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_l("Outcome"),
        choices=[
            (ChargeOutcome.CONVICTED, ChargeOutcome.CONVICTED.label),
            (ChargeOutcome.NOT_CONVICTED, ChargeOutcome.NOT_CONVICTED.label),
        ],
    )
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput())
    court = _text(_l("Court"), max_length=160)


class CourtOrderForm(forms.Form):
    ordered_on = dates.PastDateField(label=_l("Order dated"), widget=DateInput())
    court = _text(_l("Court"), max_length=160)
    terms = _text(_l("What the court ordered"), rows=2)


class SummaryDestructionForm(forms.Form):
    ground = forms.ChoiceField(label=_l("Reasonable cause"), choices=DestructionGround.choices)
    facts = _text(_l("The facts"), rows=3)
    officer_name = _text(_l("Officer"), max_length=120)
    hearing_notice_on = dates.PastDateField(
        label=_l("Owner given notice of the hearing on"), widget=DateInput(), required=False
    )
    hearing_on = dates.DateField(
        label=_l("Hearing held or offered on"), widget=DateInput(), required=False
    )
    decision_maker = _text(_l("Impartial decision maker"), False, max_length=160)
    outcome = forms.ChoiceField(
        label=_l("Decision"),
        choices=[("", "—"), ("destroy", _l("Destroy")), ("spare", _l("Do not destroy"))],
        required=False,
    )
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput(), required=False)
    reasons = _text(_l("Decision maker's reasons"), False, rows=2)


class DestroyedForm(forms.Form):
    destroyed_on = dates.PastDateField(label=_l("Destroyed on"), widget=DateInput())
