"""Paying an approved online application: the resident's pay and return pages,
the provider's webhook, and the clerk's list of online payments.

Approve, then pay. The pay page shows what the clerk approved, with its fee lines and
their sections; with Stripe configured its button sends the resident to Checkout,
otherwise it says to pay at city hall or by mail. The return page records nothing:
only the provider's signed webhook does (``licensing.services.payments``).
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from base.access import in_user_cities, public, role_required
from base.roles import ADMINISTRATOR, CLERK, RESIDENT
from licensing.models import OnlineApplication, Payment
from licensing.models.online import ApplicationStatus
from licensing.payments import (
    CheckoutUnavailable,
    StripeProvider,
    WebhookRejected,
    payment_provider,
)
from licensing.services import payments as payment_svc
from licensing.services.assessment import license_assess
from ordinance.refusals import Refused
from ordinance.rules import rule_citation

COUNTER = (CLERK, ADMINISTRATOR)
PAYMENTS_PER_PAGE = 50


# --- The resident's pages ---------------------------------------------------------------


def _own_application(request, pk) -> OnlineApplication:
    """The resident's own application: another resident's is a 404 (style.md)."""
    application = (
        OnlineApplication.objects.filter(pk=pk, owner__user=request.user)
        .select_related(
            "animal__jurisdiction",
            "animal__premises__jurisdiction",
            "owner",
            "jurisdiction",
            "vaccination",
        )
        .first()
    )
    if application is None:
        raise Http404
    return application


def _fee_lines(application, *, on):
    """The fee lines behind the amount due, as ``license_assess`` (the counter's code)
    computes them today with the application date (NB Sec. 6-65(c), LIC-13); None when
    they no longer add up to what the clerk approved (the schedule changed in between):
    then no card payment is offered, since its receipt would be refused."""
    if application.status != ApplicationStatus.APPROVED:
        return None
    assessment = license_assess(
        animal=application.animal,
        owner=application.owner,
        on=on,
        applied_on=application.applied_on,
        vaccination=application.vaccination,
    )
    if not assessment.can_issue or assessment.total != application.amount_due:
        return None
    return assessment.fee_lines


def _pay_page(request, application, provider, *, fee_lines, error=""):
    payable = fee_lines is not None
    response = render(
        request,
        "licensing/payments/pay.html",
        {
            "application": application,
            "provider": provider,
            "payable": payable,
            "fee_lines": fee_lines or [],
            "error": error,
            "contact_cities": [application.jurisdiction],
            # The application date decides the term and the late penalty.
            "penalty_citation": rule_citation(application.jurisdiction, "LIC-13"),
        },
    )
    if payable and provider.online:
        # Checkout is on another host: the POST's redirect counts against form-action.
        response._csp_update = {"form-action": list(provider.form_action_origins)}
    return response


@role_required(RESIDENT)
def application_pay(request, pk):
    """GET: the amount due and how to pay. POST: start the card payment (303 to Checkout)."""
    application = _own_application(request, pk)
    provider = payment_provider()
    fee_lines = _fee_lines(application, on=timezone.localdate())
    if request.method != "POST":
        return _pay_page(request, application, provider, fee_lines=fee_lines)
    if fee_lines is None or not provider.online:
        return _pay_page(
            request,
            application,
            provider,
            fee_lines=fee_lines,
            error=_("This application cannot be paid online now."),
        )
    try:
        url = provider.start(
            application,
            success_url=request.build_absolute_uri(
                reverse("licensing:application_paid", args=[application.pk])
            ),
            cancel_url=request.build_absolute_uri(
                reverse("licensing:application_pay", args=[application.pk])
            ),
            email=application.owner.email or request.user.email,
        )
    except CheckoutUnavailable:
        return _pay_page(
            request,
            application,
            provider,
            fee_lines=fee_lines,
            error=_(
                "The card payment service did not answer. Try again in a few minutes, "
                "or pay at city hall or by mail."
            ),
        )
    response = HttpResponseRedirect(url)
    response.status_code = 303  # See Other: the browser GETs Checkout's page
    return response


@role_required(RESIDENT)
def application_paid(request, pk):
    """Where Checkout sends the resident back. It records nothing: the payment counts
    once the provider's signed webhook confirms it."""
    application = _own_application(request, pk)
    return render(request, "licensing/payments/paid.html", {"application": application})


# --- The provider's webhook -----------------------------------------------------------


@public
@csrf_exempt  # Stripe signs its deliveries instead (Stripe-Signature, checked below)
@require_POST
def stripe_webhook(request):
    provider = StripeProvider()
    if not provider.is_configured:
        raise Http404
    try:
        provider.handle_webhook(request.body, request.headers.get("Stripe-Signature", ""))
    except WebhookRejected:
        return HttpResponse(status=400)
    return HttpResponse(status=200)


# --- The clerk's list ------------------------------------------------------------------


def _city_payments(user):
    return in_user_cities(Payment.objects, user, field="application__jurisdiction")


@role_required(*COUNTER)
def payment_list(request, *, failed=None):
    """Online payments of the clerk's cities, held ones first (the clerk must finish them)."""
    payments = (
        _city_payments(request.user)
        .select_related(
            "application__animal",
            "application__owner",
            "application__jurisdiction",
            "receipt",
        )
        .annotate(
            held_first=Case(
                When(status=Payment.Status.HELD, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            )
        )
        .order_by("held_first", "-received_at", "-pk")
    )
    page = Paginator(payments, PAYMENTS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "licensing/payments/list.html",
        {
            "payments": page,
            "failed": failed,
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


@role_required(*COUNTER)
@require_POST
def payment_finish(request, pk):
    """Issue the license for a held payment as at the counter, and link the receipt."""
    payment = _city_payments(request.user).filter(pk=pk).first()
    if payment is None:
        raise Http404
    try:
        result = payment_svc.payment_finish(payment, actor=request.user)
    except Refused as refused:
        return payment_list(request, failed=(payment.pk, refused.messages))
    messages.success(
        request,
        _("License %(license)s issued: receipt %(receipt)s.")
        % {"license": result.license.number, "receipt": result.receipt.number},
    )
    return redirect("licensing:receipt_detail", result.receipt.pk)
