"""After the hold (IMP-04, IMP-09..15, Minn. Stat. 346.47 subd. 3): the case page's
disposition section, the disposition page with its forms, and the sterilization list.

Officers and administrators act; clerks see. Every refusal shows next to its field with
its section (``apply_service_errors``); the research release is shown disabled with the
statute that forbids it.
"""

from django import forms
from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from base import dates
from base.access import get_in_jurisdiction, role_required
from base.forms import DateInput, apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from base.uploads import upload_check
from impound.models import OPEN_AGREEMENT_STATUSES, ImpoundCase, SterilizationAgreement
from impound.services import dispositions as svc
from impound.services import sterilization as steril
from licensing.models import PaymentMethod
from notices.models import Decision
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable

ACTORS = (OFFICER, ADMINISTRATOR)
UPLOAD_TYPES = ("application/pdf", "image/jpeg", "image/png")


class DecisionForm(forms.Form):
    decided_by_name = forms.CharField(label=_l("Decided by"), max_length=120)
    capacity = forms.CharField(label=_l("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput())
    reasons = forms.CharField(label=_l("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))
    override_reason = forms.CharField(
        label=_l("Override of the hold (only before it ends): reason"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class AdoptForm(DecisionForm):
    adopter_name = forms.CharField(label=_l("Adopter"), max_length=160)
    adopter_address = forms.CharField(label=_l("Adopter's address"), max_length=300)
    suitable = forms.BooleanField(
        label=_l("I find the adopter a responsible and suitable owner"), required=False
    )
    sterilization_agreed = forms.BooleanField(
        label=_l("The adopter signed the sterilization agreement"), required=False
    )
    humane_society_undertakes = forms.BooleanField(
        label=_l("The humane society will spay (North Branch)"), required=False
    )
    date_of_birth = dates.BirthDateField(
        label=_l("Date of birth, if known"), required=False, widget=DateInput()
    )
    payment_method = forms.ChoiceField(
        label=_l("Deposit paid by"),
        choices=[("", "—"), *PaymentMethod.choices],
        required=False,
    )
    payment_reference = forms.CharField(label=_l("Payment reference"), required=False)


class TransferForm(DecisionForm):
    institution = forms.CharField(label=_l("College or school"), max_length=160)
    institution_address = forms.CharField(label=_l("Its address"), max_length=300)
    accredited = forms.BooleanField(
        label=_l("An accredited college of veterinary medicine or veterinary technology school"),
        required=False,
    )
    purpose = forms.ChoiceField(
        label=_l("For"),
        choices=[("care", _l("Needed care")), ("sterilization", _l("Sterilization"))],
    )


class CertificateForm(forms.Form):
    sterilized_on = dates.PastDateField(label=_l("Sterilized on"), widget=DateInput())
    veterinarian = forms.CharField(label=_l("Veterinarian"), max_length=200)
    certificate = forms.FileField(label=_l("Veterinarian's certificate"), required=False)

    def clean_certificate(self):
        upload = self.cleaned_data.get("certificate")
        if upload:
            return upload_check(upload, UPLOAD_TYPES)
        return upload


class RemitForm(forms.Form):
    remitted_to = forms.CharField(label=_l("Remitted to (veterinarian)"), max_length=200)
    remitted_on = dates.PastDateField(label=_l("Remitted on"), widget=DateInput())


class AgreementDecisionForm(forms.Form):
    decided_by_name = forms.CharField(label=_l("Decided by"), max_length=120)
    capacity = forms.CharField(label=_l("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_l("Decided on"), widget=DateInput())
    reasons = forms.CharField(label=_l("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))


class WaiverForm(AgreementDecisionForm):
    application = forms.FileField(label=_l("The adopter's written application"))

    def clean_application(self):
        return upload_check(self.cleaned_data["application"], UPLOAD_TYPES)


FORMS = {
    "adopt": AdoptForm,
    "euthanize": DecisionForm,
    "transfer": TransferForm,
    "certificate": CertificateForm,
    "remit": RemitForm,
    "forfeit": AgreementDecisionForm,
    "waive": WaiverForm,
}


def _agreement(case):
    try:
        return case.sterilization
    except SterilizationAgreement.DoesNotExist:
        return None


def disposition_context(request, case) -> dict:
    """What the section shows: actions for the status, the research block, the agreement."""
    today = timezone.localdate()
    can_act = request.user.has_role(*ACTORS)
    agreement = _agreement(case)
    research = svc.research_block(case.jurisdiction, on=today)
    decisions = Decision.objects.filter(
        subject_type=ContentType.objects.get_for_model(ImpoundCase), subject_id=case.pk
    )
    return {
        "case": case,
        "can_act": can_act and case.may("dispose"),
        "held": case.hold_running,
        "research": research,
        "agreement": agreement,
        "agreement_open": agreement is not None and agreement.may("certify"),
        "can_forfeit": agreement is not None and agreement.may("forfeit"),
        "can_remit": agreement is not None and agreement.may_remit,
        "agreement_actor": can_act and agreement is not None,
        "decisions": decisions,
    }


def case_section(request, *, case):
    """The case page's "After the hold" section (registered in apps.py)."""
    if not request.user.has_role(CLERK, *ACTORS):
        return None
    return "impound/dispositions/_section.html", disposition_context(request, case)


SECTIONS = [("dispositions", case_section, 40)]


def _run(action, case, form, user):
    data = form.cleaned_data
    agreement = _agreement(case)
    if action == "adopt":
        svc.case_adopt(
            case=case,
            actor=user,
            adoption=svc.Adoption.of(data),
            judgement=svc.Judgement.of(data),
            date_of_birth=data["date_of_birth"],
        )
    elif action == "euthanize":
        svc.case_euthanize(case=case, actor=user, judgement=svc.Judgement.of(data))
    elif action == "transfer":
        svc.case_transfer_vet_college(
            case=case,
            actor=user,
            transfer=svc.VetCollegeTransfer.of(data),
            judgement=svc.Judgement.of(data),
        )
    elif agreement is None:
        raise Refused.because(_("Sterilization"), _("This case has no sterilization agreement."))
    else:
        AGREEMENT_ACTIONS[action](agreement=agreement, actor=user, **data)


AGREEMENT_ACTIONS = {
    "certificate": steril.agreement_record_certificate,
    "remit": steril.agreement_remit,
    "forfeit": steril.agreement_forfeit,
    "waive": steril.agreement_waive,
}


@role_required(CLERK, *ACTORS)
def case_disposition(request, pk):
    case = get_in_jurisdiction(
        ImpoundCase.objects.select_related("jurisdiction", "sterilization"), request.user, pk=pk
    )
    action = request.POST.get("action", "") if request.method == "POST" else ""
    forms_by_action = {name: cls(prefix=name) for name, cls in FORMS.items()}
    if action in FORMS:
        if not request.user.has_role(*ACTORS):
            raise PermissionDenied  # a clerk sees the page but does not decide
        form = FORMS[action](request.POST, request.FILES, prefix=action)
        forms_by_action[action] = form
        if form.is_valid():
            try:
                _run(action, case, form, request.user)
            except Refused as refused:
                apply_service_errors(form, refused)
            except RuleUnavailable as exc:
                apply_service_errors(form, Refused.from_rule(exc))
            else:
                messages.success(request, _("Recorded."))
                return redirect("impound:case_disposition", pk=case.pk)
    context = disposition_context(request, case)
    context.update({"forms": forms_by_action, "active": action})
    return render(request, "impound/dispositions/case.html", context)


@role_required(CLERK, *ACTORS)
def sterilization_list(request):
    """Agreements pending or overdue in the user's cities, soonest due first."""
    agreements = (
        SterilizationAgreement.objects.for_user(request.user)
        .filter(status__in=OPEN_AGREEMENT_STATUSES)
        .select_related("case", "jurisdiction")
        .order_by("due_on", "pk")
    )
    return render(
        request,
        "impound/dispositions/sterilization_list.html",
        {
            "agreements": agreements,
            "today": timezone.localdate(),
            "many_cities": len(request.user.jurisdiction_ids) > 1,
        },
    )


urlpatterns = [
    path("cases/<int:pk>/disposition/", case_disposition, name="case_disposition"),
    path("sterilization/", sterilization_list, name="sterilization_list"),
]
