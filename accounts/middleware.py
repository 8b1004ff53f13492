from urllib.parse import urlencode

from django.shortcuts import redirect
from django.urls import Resolver404, resolve, reverse

from .services import second_step_for, session_passed_second_step

# The pages a staff member may open before the second step, by what that step is.
OPEN_BEFORE = {
    "verify": {"accounts:second_factor_verify", "accounts:logout"},
    "enroll": {"accounts:second_factor_enroll", "accounts:logout"},
}
STEP_PAGE = {"verify": "accounts:second_factor_verify", "enroll": "accounts:second_factor_enroll"}


class SecondFactorMiddleware:
    """No page (Django admin included) for a staff session that has not passed the second
    step: one with an authenticator app enters its code, an administrator without one
    enrolls first. Residents, and staff without one who need none, pass as before.

    Sets ``user.is_verified()`` (django-otp's name for it), which Django admin checks too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        verified = user.is_authenticated and session_passed_second_step(request.session, user)
        user.is_verified = lambda: verified
        if user.is_authenticated and user.is_staff_member and not verified:
            step = second_step_for(user)
            if step and _url_name(request) not in OPEN_BEFORE[step]:
                query = urlencode({"next": request.get_full_path()})
                return redirect(f"{reverse(STEP_PAGE[step])}?{query}")
        return self.get_response(request)


def _url_name(request) -> str | None:
    try:
        return resolve(request.path_info).view_name
    except Resolver404:
        return None
