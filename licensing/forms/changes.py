"""Forms of the changes residents report and of the clerk's decision.

The shape of the input only; what the change does is decided by the services
(``licensing.services.changes``) when the clerk applies it.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import DateInput
from licensing.forms.counter import CashPaymentForm
from licensing.models import ChangeKind

US_STATE = forms.RegexField(
    label=_("State"),
    regex=r"^[A-Za-z]{2}$",
    max_length=2,
    initial="MN",
    error_messages={"invalid": _("Enter the two-letter state, for example MN.")},
)
ZIP = forms.RegexField(
    label=_("ZIP code"),
    regex=r"^\d{5}(-\d{4})?$",
    max_length=10,
    error_messages={"invalid": _("Enter a 5-digit ZIP code, for example 55056.")},
)


class ReportForm(forms.Form):
    """What every report has: the day it happened. ``details`` is what the clerk sees."""

    date_label = _("Date")
    detail_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["happened_on"] = dates.PastDateField(label=self.date_label, widget=DateInput())
        self.order_fields(["happened_on", *self.detail_fields])

    def details(self) -> dict:
        data = self.cleaned_data
        return {name: str(data.get(name) or "").strip() for name in self.detail_fields}


class AddressReportForm(ReportForm):
    date_label = _("Date you moved")
    detail_fields = ("address_line", "unit", "city", "state", "postal_code")
    address_line = forms.CharField(label=_("New street address"), max_length=160)
    unit = forms.CharField(label=_("Apartment or unit"), max_length=40, required=False)
    city = forms.CharField(label=_("City"), max_length=80)
    state = US_STATE
    postal_code = ZIP

    def details(self) -> dict:
        details = super().details()
        details["state"] = details["state"].upper()
        return details


class DeathReportForm(ReportForm):
    date_label = _("Date the animal died")


class TransferReportForm(ReportForm):
    date_label = _("Date of the transfer")
    detail_fields = (
        "first_name",
        "last_name",
        "address_line",
        "unit",
        "city",
        "state",
        "postal_code",
        "email",
        "phone",
    )
    first_name = forms.CharField(label=_("New owner's first name"), max_length=80)
    last_name = forms.CharField(label=_("New owner's last name"), max_length=80)
    address_line = forms.CharField(label=_("New owner's street address"), max_length=160)
    unit = forms.CharField(label=_("Apartment or unit"), max_length=40, required=False)
    city = forms.CharField(label=_("City"), max_length=80)
    state = US_STATE
    postal_code = ZIP
    email = forms.EmailField(
        label=_("New owner's e-mail"),
        help_text=_("We e-mail them a link to accept the animal on their own account."),
    )
    phone = forms.CharField(label=_("New owner's phone"), max_length=30, required=False)


class LostTagReportForm(ReportForm):
    date_label = _("Date the tag was lost")
    detail_fields = ("where",)
    where = forms.CharField(
        label=_("Where it was lost"),
        max_length=200,
        required=False,
        help_text=_("If you know: a park, a street, at home."),
    )


REPORT_FORMS = {
    ChangeKind.ADDRESS: AddressReportForm,
    ChangeKind.DEATH: DeathReportForm,
    ChangeKind.TRANSFER: TransferReportForm,
    ChangeKind.LOST_TAG: LostTagReportForm,
}


# --- The clerk ------------------------------------------------------------------------


class ApplyNoteMixin(forms.Form):
    note = forms.CharField(
        label=_("Note for the resident"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ApplyForm(ApplyNoteMixin):
    """A death: nothing to pay, nothing to choose."""


class ApplyAddressForm(ApplyNoteMixin):
    within_city = forms.TypedChoiceField(
        label=_("Where to"),
        coerce=lambda v: v == "yes",
        choices=[
            ("yes", _("A new address within the city")),
            ("no", _("Out of the city (closes the license)")),
        ],
    )


class ApplyPaidForm(CashPaymentForm, ApplyNoteMixin):
    """A transfer or a lost tag: paid at the counter as any other fee."""


class ApplyTransferForm(ApplyPaidForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["tag_number"]  # the license keeps its tag (LIC-12)


APPLY_FORMS = {
    ChangeKind.ADDRESS: ApplyAddressForm,
    ChangeKind.DEATH: ApplyForm,
    ChangeKind.TRANSFER: ApplyTransferForm,
    ChangeKind.LOST_TAG: ApplyPaidForm,
}


class DeclineForm(forms.Form):
    reason = forms.CharField(
        label=_("Why (the resident reads this)"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
