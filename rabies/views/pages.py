"""The rabies pages for staff: the dashboard and the three record pages (Appendix B4, B5).

Thin views: the role first (a wrong role always gets 403), the record within the user's
cities (404 otherwise), render. The record pages are filled by the parts' sections
(``rabies.bite_detail``, ``rabies.quarantine_detail``, ``rabies.exposure_detail``).
``record_file`` serves back the files those records keep, never from MEDIA_URL.
"""

from django.http import Http404
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from base.access import get_in_jurisdiction, role_required
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from base.uploads import upload_response
from ordinance.models import Event
from rabies.models import (
    BiteReport,
    DocumentRequest,
    ExaminerHearing,
    Exposure,
    LabSubmission,
    Quarantine,
)

ACTING_ROLES = (OFFICER, ADMINISTRATOR)
# The files the rabies records keep, by the word in their address: (model, field).
RECORD_FILES = {
    "document": (DocumentRequest, "file"),
    "laboratory-report": (LabSubmission, "result_file"),
    "consent": (Exposure, "consent_file"),
    "exposure-report": (Exposure, "report_file"),
    "quarantine-report": (Quarantine, "report_file"),
    "waiver": (ExaminerHearing, "waiver_file"),
}


def multi_city(user) -> bool:
    return len(user.jurisdiction_ids) > 1


def _record_page(request, record, template, extra=None):
    events = list(Event.objects.for_object(record).select_related("actor").order_by("at", "pk"))
    context = {
        "record": record,
        "events": events,
        "today": timezone.localdate(),
        "show_city": multi_city(request.user),
        "may_act": request.user.has_role(*ACTING_ROLES),
        **(extra or {}),
    }
    return render(request, template, context)


def bite_for_detail(user, pk) -> BiteReport:
    return get_in_jurisdiction(
        BiteReport.objects.select_related(
            "jurisdiction", "animal__owner", "victim_animal__owner", "vaccination", "officer"
        ),
        user,
        pk=pk,
    )


def quarantine_for_detail(user, pk) -> Quarantine:
    return get_in_jurisdiction(
        Quarantine.objects.select_related(
            "jurisdiction", "animal__owner", "bite_report", "impound_case", "order", "officer"
        ),
        user,
        pk=pk,
    )


def exposure_for_detail(user, pk) -> Exposure:
    return get_in_jurisdiction(
        Exposure.objects.select_related(
            "jurisdiction", "animal__owner", "bite_report", "board_report", "officer"
        ),
        user,
        pk=pk,
    )


@role_required(*STAFF_ROLES)
def bite_detail(request, pk):
    return _record_page(request, bite_for_detail(request.user, pk), "rabies/bite_detail.html")


@role_required(*STAFF_ROLES)
def quarantine_detail(request, pk):
    record = quarantine_for_detail(request.user, pk)
    return _record_page(request, record, "rabies/quarantine_detail.html")


@role_required(*STAFF_ROLES)
def exposure_detail(request, pk):
    record = exposure_for_detail(request.user, pk)
    return _record_page(request, record, "rabies/exposure_detail.html")


@role_required(*STAFF_ROLES)
def record_file(request, kind, pk):
    """A record's file as a download, never from MEDIA_URL: 404 outside the user's cities."""
    if kind not in RECORD_FILES:
        raise Http404
    model, field = RECORD_FILES[kind]
    fieldfile = getattr(get_in_jurisdiction(model.objects.all(), request.user, pk=pk), field)
    if not fieldfile:
        raise Http404
    return upload_response(fieldfile, download_name=f"rabies-{kind}-{pk}")


urlpatterns = [
    path("bites/<int:pk>/", bite_detail, name="bite_detail"),
    path("quarantines/<int:pk>/", quarantine_detail, name="quarantine_detail"),
    path("exposures/<int:pk>/", exposure_detail, name="exposure_detail"),
    path("files/<slug:kind>/<int:pk>/", record_file, name="record_file"),
]
