"""The rabies pages for staff: the dashboard and the three record pages (Appendix B4, B5).

Thin views: the role first (a wrong role always gets 403), the record within the user's
cities (404 otherwise), render. The record pages are filled by the parts' sections
(``rabies.bite_detail``, ``rabies.quarantine_detail``, ``rabies.exposure_detail``).
"""

from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from base.access import get_in_jurisdiction, role_required
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from ordinance.models import Event
from rabies.models import BiteReport, Exposure, Quarantine

ACTING_ROLES = (OFFICER, ADMINISTRATOR)


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


urlpatterns = [
    path("bites/<int:pk>/", bite_detail, name="bite_detail"),
    path("quarantines/<int:pk>/", quarantine_detail, name="quarantine_detail"),
    path("exposures/<int:pk>/", exposure_detail, name="exposure_detail"),
]
