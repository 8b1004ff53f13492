"""Kennel license forms: the shape of the input only; the rules are in services.kennels."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from base import dates
from licensing.forms.counter import OwnerPickForm
from licensing.forms.tendered import CashTendered
from licensing.models import Animal, KennelAnimal, KennelDecision, Owner, PaymentMethod
from ordinance.rules import rule_citation


class DateInput(forms.DateInput):
    input_type = "date"


class KennelApplyForm(forms.Form):
    # Chosen among search results (``selectors.owner_choices``), never a list of every
    # owner: any owner of the clerk's cities validates, only the results are offered.
    owner = forms.ModelChoiceField(
        label=_("Applicant (owner)"),
        queryset=Owner.objects.none(),
        widget=forms.RadioSelect,
        empty_label=None,
        error_messages={"required": _("Find the applicant and choose them.")},
    )
    business_nature = forms.CharField(
        label=_("Nature of business"),
        required=False,
        max_length=200,
        help_text=_(
            "Buying, selling, breeding and/or boarding. Leave blank if none: a "
            "person decides the route"
        ),
    )
    dog_count = forms.IntegerField(label=_("Number of dogs"), min_value=0, max_value=500)
    cat_count = forms.IntegerField(label=_("Number of cats"), min_value=0, max_value=500, initial=0)
    cup_reference = forms.CharField(
        label=_("Conditional use permit reference"), required=False, max_length=60
    )
    became_subject_on = dates.PastDateField(
        label=_("Became subject to kennel licensing on"),
        required=False,
        widget=DateInput,
        help_text=_(
            "Only if the kennel started after the license term began: no late "
            "penalty within the grace days of this date"
        ),
    )

    def __init__(self, *args, user, jurisdiction=None, candidates=(), **kwargs):
        """``jurisdiction``: the city the application is for, when the page knows it (the
        clerk serves one city); its sections (KEN-03, LIC-13) then go in the help texts.
        Without it the help texts cite no section: the owner picked decides the city.
        ``candidates``: the owners the clerk's search found."""
        super().__init__(*args, **kwargs)
        self._cite("business_nature", jurisdiction, "KEN-03")
        self._cite("became_subject_on", jurisdiction, "LIC-13")
        field = self.fields["owner"]
        field.queryset = Owner.objects.for_user(user).filter(merged_into__isnull=True)
        field.widget.choices = [(o.pk, f"{o.name}, {o.address}") for o in candidates]
        if len(candidates) == 1 and not self.is_bound:
            self.initial["owner"] = candidates[0].pk

    def _cite(self, name, jurisdiction, rule):
        """End the help text with the city's section for ``rule`` (a rules.md ID), or with a
        bare full stop where there is no city or its ordinance has no such section."""
        section = rule_citation(jurisdiction, rule) if jurisdiction is not None else ""
        field = self.fields[name]
        if section:
            field.help_text = format_lazy("{} ({}).", field.help_text, section)
        else:
            field.help_text = format_lazy("{}.", field.help_text)

    def clean(self):
        data = super().clean()
        if data.get("dog_count") == 0 and data.get("cat_count") == 0:
            raise forms.ValidationError(_("Enter how many dogs or cats the kennel keeps."))
        return data


class PersonDecisionFields(forms.Form):
    decided_by_name = forms.CharField(label=_("Decided by (name)"), max_length=120)
    decided_by_capacity = forms.CharField(label=_("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_("Decided on"), widget=DateInput)
    reasons = forms.CharField(label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 2}))


class StepDecisionForm(PersonDecisionFields):
    OUTCOMES = [
        (KennelDecision.Outcome.APPROVED, _("Approved / satisfied")),
        (KennelDecision.Outcome.CONDITIONS, _("Approved with conditions")),
        (KennelDecision.Outcome.REFERRED, _("Referred (pending)")),
        (KennelDecision.Outcome.DENIED, _("Denied")),
    ]
    step = forms.ChoiceField(label=_("Review step"))
    outcome = forms.ChoiceField(label=_("Outcome"), choices=OUTCOMES)
    conditions = forms.CharField(
        label=_("Conditions (one per line)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    notified_on = dates.PastDateField(
        label=_("Applicant notified of a denial on"), required=False, widget=DateInput
    )
    field_order = [
        "step",
        "outcome",
        "decided_by_name",
        "decided_by_capacity",
        "decided_on",
        "reasons",
        "conditions",
        "notified_on",
    ]

    def __init__(self, *args, steps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = [(s, s) for s in steps]

    def clean(self):
        data = super().clean()
        if data.get("outcome") == KennelDecision.Outcome.CONDITIONS and not data.get("conditions"):
            self.add_error("conditions", _("Write the conditions."))
        return data


class PaymentForm(CashTendered):
    method = forms.ChoiceField(label=_("Payment method"), choices=PaymentMethod.choices)
    reference = forms.CharField(
        label=_("Check number or card last 4"), required=False, max_length=40
    )
    field_order = ["method", "reference", "amount_tendered"]


class NotifiedForm(forms.Form):
    notified_on = dates.PastDateField(
        label=_("Applicant notified of the denial on"), widget=DateInput
    )


class AppealFileForm(forms.Form):
    filed_on = dates.PastDateField(label=_("Appeal filed with the Council on"), widget=DateInput)


class AppealDecideForm(PersonDecisionFields):
    granted = forms.TypedChoiceField(
        label=_("Council decision"),
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Granted")), ("no", _("Denied (final)"))],
    )
    conditions = forms.CharField(
        label=_("Conditions imposed (one per line)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    field_order = [
        "granted",
        "conditions",
        "decided_by_name",
        "decided_by_capacity",
        "decided_on",
        "reasons",
    ]


class RevocationNoticeForm(forms.Form):
    served_on = dates.PastDateField(label=_("Notice served on"), widget=DateInput)
    hearing_on = dates.DateField(label=_("Hearing date"), widget=DateInput)
    decided_by_name = forms.CharField(label=_("Notice given by (name)"), max_length=120)
    decided_by_capacity = forms.CharField(label=_("In the capacity of"), max_length=120)
    reasons = forms.CharField(
        label=_("Alleged violation"), widget=forms.Textarea(attrs={"rows": 2})
    )


class RevocationDecideForm(PersonDecisionFields):
    revoke = forms.TypedChoiceField(
        label=_("Council decision after the hearing"),
        coerce=lambda v: v == "yes",
        choices=[("yes", _("Revoke the license")), ("no", _("Do not revoke"))],
    )
    field_order = ["revoke", "decided_by_name", "decided_by_capacity", "decided_on", "reasons"]


class KennelTransferForm(OwnerPickForm, PaymentForm):
    """LIC-12: the new owner and the transfer fee's payment."""


class KennelAnimalRemoveForm(forms.Form):
    animal = forms.ModelChoiceField(
        label=_("Animal no longer kept under this license"), queryset=Animal.objects.none()
    )
    removed_on = dates.PastDateField(label=_("Removed on"), widget=DateInput)

    def __init__(self, *args, kennel, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["animal"].queryset = Animal.objects.filter(
            kennel_memberships__kennel_license=kennel, kennel_memberships__removed_on__isnull=True
        )


class KennelAnimalForm(forms.Form):
    animal = forms.ModelChoiceField(
        label=_("Animal kept under this license"), queryset=Animal.objects.none()
    )

    def __init__(self, *args, kennel, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["animal"].queryset = Animal.objects.filter(
            owner_id=kennel.owner_id, jurisdiction_id=kennel.jurisdiction_id
        ).exclude(
            pk__in=KennelAnimal.objects.filter(
                kennel_license=kennel, removed_on__isnull=True
            ).values("animal_id")
        )
