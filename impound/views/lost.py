"""Lost-pet reports: the resident's own pages and the city's staff list.

A resident sees only reports they filed (``reporter == request.user``; another's is a
404) and, of a likely match, only what the public found page shows. Staff see the
reports of the cities they serve, with the resident's contact and the case link
(another city's report is a 404). ``role_required`` comes first: a wrong role gets 403.
Rules: IMP-05, REC-04 (NB Sec. 6-68; GL 701 Subds. 13, 14).
"""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import RESIDENT, STAFF_ROLES
from base.uploads import upload_response
from impound.forms_lost import LostCloseForm, LostReportForm
from impound.models import ACTIVE_LOST_STATUSES, LostMatch, LostReport, LostStatus, PoundHours
from impound.services import lost as svc
from impound.services.lost_mail import public_description
from ordinance.refusals import Refused

PAGE_SIZE = 25


def _own(user, pk, queryset=None) -> LostReport:
    report = (
        (queryset or LostReport.objects)
        .filter(pk=pk, reporter=user)
        .select_related("jurisdiction")
        .first()
    )
    if report is None:
        raise Http404
    return report


def _matches_for_resident():
    return Prefetch(
        "matches",
        queryset=LostMatch.objects.select_related("case__jurisdiction", "case__pound")
        .prefetch_related(
            Prefetch("case__pound__hours", queryset=PoundHours.objects.order_by("weekday", "opens"))
        )
        .order_by("-score", "pk"),
    )


@role_required(RESIDENT)
def lost_report_list(request):
    reports = LostReport.objects.filter(reporter=request.user).select_related("jurisdiction")
    page = Paginator(reports.order_by("-created_at", "-pk"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "impound/lost/my_list.html", {"page": page, "reports": page})


@role_required(RESIDENT)
@require_http_methods(["GET", "POST"])
def lost_report_new(request):
    form = LostReportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            report = svc.lost_report_file(
                reporter=request.user,
                jurisdiction=form.cleaned_data["jurisdiction"],
                **form.service_kwargs(),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Your report is filed. We compare it with every animal the pound takes in."),
            )
            return redirect(report)
    return render(request, "impound/lost/new.html", {"form": form})


@role_required(RESIDENT)
def lost_report_detail(request, pk):
    report = _own(request.user, pk, LostReport.objects.prefetch_related(_matches_for_resident()))
    found = [
        {
            "match": m,
            "animal": public_description(m.case),
            "pound": m.case.pound,
            "hours": m.case.pound.hours.all(),
        }
        for m in report.matches.all()
    ]
    return render(
        request,
        "impound/lost/my_detail.html",
        {
            "report": report,
            "found": found,
            "close_form": LostCloseForm(),
            "may_close": report.may("close"),
        },
    )


@role_required(RESIDENT)
@require_POST
def lost_report_renew(request, pk):
    report = _own(request.user, pk)
    try:
        report = svc.lost_report_renew(report=report, actor=request.user)
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Renewed: your report is open until %(day)s.")
            % {"day": date_format(report.expires_on)},
        )
    return redirect(report)


@role_required(RESIDENT)
@require_http_methods(["GET", "POST"])
def lost_report_close(request, pk):
    report = _own(request.user, pk)
    form = LostCloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            svc.lost_report_close(report=report, actor=request.user, note=form.cleaned_data["note"])
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Your report is closed. We are glad you found your pet."))
            return redirect(report)
    return render(request, "impound/lost/close.html", {"report": report, "form": form})


@role_required(RESIDENT, *STAFF_ROLES)
def lost_report_photo(request, pk):
    """The resident who filed the report, or staff of its city."""
    if request.user.has_role(*STAFF_ROLES):
        report = get_in_jurisdiction(LostReport.objects, request.user, pk=pk)
    else:
        report = _own(request.user, pk)
    if not report.photo:
        raise Http404
    return upload_response(report.photo, download_name=f"lost-report-{report.pk}-photo")


STAFF_FILTERS = {
    "active": ACTIVE_LOST_STATUSES,
    "matched": (LostStatus.MATCHED,),
    "all": tuple(LostStatus),
}


@role_required(*STAFF_ROLES)
def lost_reports(request):
    """Lost reports and likely matches of the user's cities: the report, the resident's
    contact, each match's case with its link."""
    shown = request.GET.get("status", "active")
    if shown not in STAFF_FILTERS:
        shown = "active"
    reports = (
        LostReport.objects.for_user(request.user)
        .filter(status__in=STAFF_FILTERS[shown])
        .select_related("jurisdiction", "reporter")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=LostMatch.objects.select_related("case").order_by("-score", "pk"),
            )
        )
        .order_by("-status_changed_at", "-pk")
    )
    page = Paginator(reports, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "impound/lost/staff_list.html",
        {
            "page": page,
            "reports": page.object_list,
            "shown": shown,
            "filters": [
                ("active", _("Open and matched")),
                ("matched", _("With a likely match")),
                ("all", _("All")),
            ],
            "show_city": len(request.user.jurisdiction_ids) > 1,
        },
    )


def case_lost_section(request, *, case):
    """Provider for the case page (base.sections): the lost reports this animal may
    answer, with the resident's contact, for staff (one query)."""
    if not request.user.has_role(*STAFF_ROLES):
        return None
    matches = list(
        LostMatch.objects.filter(case=case)
        .select_related("report__reporter")
        .order_by("-score", "pk")
    )
    if not matches:
        return None
    return "impound/lost/_case_section.html", {"case": case, "lost_matches": matches}


SECTIONS = [("lost", case_lost_section, 45)]


urlpatterns = [
    path("lost/", lost_reports, name="lost_reports"),
    path("lost/<int:pk>/photo/", lost_report_photo, name="lost_report_photo"),
    path("my/lost/", lost_report_list, name="lost_report_list"),
    path("my/lost/new/", lost_report_new, name="lost_report_new"),
    path("my/lost/<int:pk>/", lost_report_detail, name="lost_report_detail"),
    path("my/lost/<int:pk>/renew/", lost_report_renew, name="lost_report_renew"),
    path("my/lost/<int:pk>/close/", lost_report_close, name="lost_report_close"),
]
