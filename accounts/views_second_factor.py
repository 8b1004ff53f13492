"""Staff's two-step verification pages: the code after the password,
enrollment with a QR code, the account's page (recovery codes, turn off).

Each view is thin: it checks the role, calls one service in ``accounts.services`` and
renders. ``SecondFactorMiddleware`` sends a session that has not passed the second step
here before any other page.
"""

from base64 import b64encode
from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import STAFF_ROLES
from ordinance.refusals import Refused

from . import services
from .forms import CodeForm

SHOWN_CODES_KEY = "second_factor_codes_to_show"
# Fewer recovery codes than this left: the page after logging in with one says to make new.
FEW_CODES_LEFT = 3


def _next_url(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse("accounts:home")


def _with_next(url_name: str, next_url: str) -> str:
    return f"{reverse(url_name)}?{urlencode({'next': next_url})}"


def _pass_second_step(request) -> None:
    services.session_pass_second_step(request.session, request.user)
    request.session.cycle_key()  # a new session id once both factors are in


@never_cache
@role_required(*STAFF_ROLES)
def verify(request):
    """The second page of logging in: the code from the app, or a recovery code."""
    user = request.user
    next_url = _next_url(request)
    if user.is_verified() or not services.has_second_factor(user):
        return redirect(next_url)
    form = CodeForm(request.POST or None, allow_recovery=True)
    if request.method == "POST" and form.is_valid():
        try:
            result = services.second_factor_verify(user=user, code=form.cleaned_data["code"])
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            _pass_second_step(request)
            if result.recovery_code_used:
                _recovery_code_message(request, result.recovery_codes_left)
            return redirect(next_url)
    return render(
        request,
        "accounts/second_factor/verify.html",
        {"form": form, "next": next_url},
        status=400 if form.errors else 200,
    )


def _recovery_code_message(request, left: int) -> None:
    text = ngettext(
        "You logged in with a recovery code. It will not work again; %(n)d is left.",
        "You logged in with a recovery code. It will not work again; %(n)d are left.",
        left,
    ) % {"n": left}
    if left < FEW_CODES_LEFT:
        text += " " + _("Make new recovery codes on the Two-step verification page.")
    messages.warning(request, text)


def _qr_data_uri(device) -> str:
    image = qrcode.make(
        device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=4
    )
    svg = image.to_string(encoding="unicode")
    return "data:image/svg+xml;base64," + b64encode(svg.encode()).decode()


@never_cache
@role_required(*STAFF_ROLES)
def enroll(request):
    """Turn it on: scan the QR code (or type the key), then prove it with one code."""
    user = request.user
    next_url = _next_url(request)
    if services.has_second_factor(user):
        return redirect("accounts:second_factor")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device, codes = services.second_factor_enroll_confirm(
                user=user, code=form.cleaned_data["code"]
            )
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            _pass_second_step(request)
            request.session[SHOWN_CODES_KEY] = codes
            return redirect(_with_next("accounts:second_factor_codes", next_url))
    device = services.second_factor_enroll_start(user=user)
    return render(
        request,
        "accounts/second_factor/enroll.html",
        {
            "form": form,
            "next": next_url,
            "qr": _qr_data_uri(device),
            "key": services.key_for_typing(device),
            "required": services.second_factor_required(user),
        },
        status=400 if form.errors else 200,
    )


def _account_page(request, *, regenerate=None, turn_off=None, status=200):
    user = request.user
    device = services.app_device(user)
    return render(
        request,
        "accounts/second_factor/account.html",
        {
            "device": device,
            "codes_left": services.recovery_codes_left(user) if device else 0,
            "required": services.second_factor_required(user),
            "code_count": services.RECOVERY_CODE_COUNT,
            "regenerate_form": regenerate or CodeForm(auto_id="regenerate_%s"),
            "turn_off_form": turn_off or CodeForm(auto_id="turn_off_%s"),
        },
        status=status,
    )


@never_cache
@role_required(*STAFF_ROLES)
def account(request):
    """The account's Two-step verification page: on or off, recovery codes left."""
    return _account_page(request)


@never_cache
@role_required(*STAFF_ROLES)
def recovery_codes(request):
    """GET: the recovery codes just made, shown this once. POST: make new ones."""
    if request.method == "POST":
        form = CodeForm(request.POST, auto_id="regenerate_%s")
        if form.is_valid():
            try:
                codes = services.recovery_codes_regenerate(
                    user=request.user, code=form.cleaned_data["code"]
                )
            except Refused as refused:
                apply_service_errors(form, refused)
            else:
                request.session[SHOWN_CODES_KEY] = codes
                return redirect("accounts:second_factor_codes")
        return _account_page(request, regenerate=form, status=400)
    codes = request.session.pop(SHOWN_CODES_KEY, None)
    if not codes:
        return redirect("accounts:second_factor")
    return render(
        request,
        "accounts/second_factor/codes.html",
        {"codes": codes, "next": _next_url(request)},
    )


@never_cache
@role_required(*STAFF_ROLES)
@require_POST
def turn_off(request):
    if services.second_factor_required(request.user):
        # The page offers no such form to an administrator; a hand-made POST lands here.
        messages.error(request, _("Administrators must keep two-step verification on."))
        return redirect("accounts:second_factor")
    form = CodeForm(request.POST, auto_id="turn_off_%s")
    if form.is_valid():
        try:
            services.second_factor_turn_off(user=request.user, code=form.cleaned_data["code"])
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            messages.success(request, _("Two-step verification is off for your account."))
            return redirect("accounts:second_factor")
    return _account_page(request, turn_off=form, status=400)
