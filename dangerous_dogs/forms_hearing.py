"""Forms of the contested path and the appeal: the shape of the input only. The rules
(the panel's composition, impartiality, the tally, dates against the case) are the
services' (dangerous_dogs/services/hearing.py, appeal.py)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.dates import DateTimeInput
from base.forms import DateInput
from dangerous_dogs.models import Seat, Vote
from dangerous_dogs.services.panel import DISTRIBUTION_METHODS, RECIPIENTS
from notices.models import ServiceMethod

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]


def _text(label, rows=3, required=True, **kw):
    return forms.CharField(
        label=label, required=required, widget=forms.Textarea(attrs={"rows": rows}), **kw
    )


def _when(label, required=True, kind=dates.PAST):
    return dates.DateTimeField(
        label=label,
        required=required,
        kind=kind,
        widget=DateTimeInput(),
        input_formats=DATETIME_FORMATS,
    )


def _date(label, required=True):
    return dates.PastDateField(label=label, required=required, widget=DateInput())


class AttorneyReviewForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("The City Attorney's decision"),
        widget=forms.RadioSelect,
        choices=[
            ("refer", _("Refer to the Review Panel: the panel could uphold the designation")),
            ("withdraw", _("Withdraw the designation: the evidence is insufficient")),
        ],
    )
    decided_by_name = forms.CharField(label=_("City Attorney"), max_length=120)
    decided_on = _date(_("Decided on"))
    evidence = _text(_("Evidence reviewed"))
    reasons = _text(_("Reasons"))


class ScheduleForm(forms.Form):
    scheduled_for = _when(_("Hearing date and time"), kind=dates.ANY)
    place = forms.CharField(label=_("Place"), max_length=200)


class SeatForm(forms.Form):
    seat = forms.ChoiceField(label=_("Seat"), choices=[("", "—"), *Seat.choices])
    name = forms.CharField(label=_("Name"), max_length=120)
    appointed_by = forms.CharField(
        label=_("Appointed by"), max_length=120, initial=_("Mayor"), required=False
    )
    substitute_for = forms.CharField(
        label=_("In place of (a substitute)"), max_length=120, required=False
    )
    substitution_reason = forms.CharField(
        label=_("Why substituted"), max_length=200, required=False
    )
    impartial = forms.BooleanField(
        label=_("Declared no personal interest in the outcome"), required=False
    )


def seat_formset(members: int):
    """One row per member of the panel (the profile's council members plus electors)."""
    return forms.formset_factory(
        SeatForm, extra=members, min_num=0, max_num=members, validate_max=True
    )


class NoticeServedForm(forms.Form):
    method = forms.ChoiceField(label=_("How it was served"))
    served_at = _when(_("Served at"))
    served_to = forms.CharField(
        label=_("Served on, or posted at"),
        max_length=200,
        required=False,
        help_text=_("Blank: the owner at their address."),
    )
    received_on = _date(_("Owner received it on"), required=False)

    def __init__(self, *args, methods=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["method"].choices = [(m, ServiceMethod(m).label) for m in methods]


class RecordForm(forms.Form):
    held_on = _date(_("Held on"))
    ruled_on = _date(_("Ruling date (blank: the day of the hearing)"), required=False)
    witnesses = _text(_("Witnesses heard"), rows=2, required=False)
    exhibits = _text(_("Exhibits"), rows=2, required=False)
    owner_appeared = forms.BooleanField(label=_("The owner appeared"), required=False)
    owner_evidence = _text(_("Owner's evidence and cross-examination"), rows=2, required=False)
    reasons = _text(_("Reasons for the finding"), rows=4)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for seat in self.seats:
            self.fields[f"vote_{seat.pk}"] = forms.ChoiceField(
                label=_("Vote of %(name)s (%(seat)s)")
                % {"name": seat.name, "seat": seat.get_seat_display()},
                choices=[("", "—"), *Vote.choices],
            )

    def votes(self) -> dict:
        return {s.pk: self.cleaned_data.get(f"vote_{s.pk}") for s in self.seats}


class DistributeForm(forms.Form):
    owner_received_on = _date(_("Owner received the findings on"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        methods = [("", "—"), *[(m, ServiceMethod(m).label) for m in DISTRIBUTION_METHODS]]
        for key, label in RECIPIENTS.items():
            self.fields[f"{key}_method"] = forms.ChoiceField(
                label=_("%(who)s: delivered by") % {"who": label}, choices=methods
            )
            self.fields[f"{key}_served_at"] = _when(_("%(who)s: delivered at") % {"who": label})
        self.order_fields([*(f for f in self.fields if f != "owner_received_on")])

    def served(self) -> dict:
        return {
            key: {
                "method": self.cleaned_data[f"{key}_method"],
                "served_at": self.cleaned_data[f"{key}_served_at"],
            }
            for key in RECIPIENTS
        }


class ReceivedForm(forms.Form):
    owner_received_on = _date(_("Owner received the findings on"))


class AppealFileForm(forms.Form):
    filed_on = _date(_("Filed with the City Clerk on"))
    grounds = _text(_("Grounds"))


class AppealDecideForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("The City Council's decision"),
        widget=forms.RadioSelect,
        choices=[
            ("upheld", _("Upheld: the panel's ruling stands")),
            ("reversed", _("Reversed: the designation is dismissed")),
        ],
    )
    decided_by_name = forms.CharField(
        label=_("Decided by"), max_length=120, initial=_("City Council")
    )
    decided_on = _date(_("Decided on"))
    reasons = _text(_("Reasons"))


class CourtForm(forms.Form):
    on = _date(_("Appealed to the Minnesota Court of Appeals on"))
