"""The rabies dashboard: open bites, active quarantines with the days
left and those whose examination is due, exposures under observation, late bite reports;
each linked. A handful of queries whatever the number of records."""

from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from base.access import role_required
from base.roles import STAFF_ROLES
from rabies.models import (
    BITE_OPEN,
    EXPOSURE_OPEN,
    QUARANTINE_OPEN,
    BiteReport,
    Exposure,
    Quarantine,
)
from rabies.views.pages import ACTING_ROLES, multi_city

LIST_LIMIT = 100


@role_required(*STAFF_ROLES)
def dashboard(request):
    user = request.user
    today = timezone.localdate()
    bites = list(
        BiteReport.objects.for_user(user)
        .filter(status__in=BITE_OPEN)
        .select_related("jurisdiction", "animal")
        .order_by("-attention_since", "bitten_at", "pk")[:LIST_LIMIT]
    )
    quarantines = list(
        Quarantine.objects.for_user(user)
        .filter(status__in=QUARANTINE_OPEN)
        .select_related("jurisdiction", "animal")
        .order_by("ends_on", "pk")[:LIST_LIMIT]
    )
    exposures = list(
        Exposure.objects.for_user(user)
        .filter(status__in=EXPOSURE_OPEN)
        .select_related("jurisdiction", "animal")
        .order_by("period_ends_on", "pk")[:LIST_LIMIT]
    )
    late = list(
        BiteReport.objects.for_user(user)
        .filter(owner_report_late=True)
        .select_related("jurisdiction", "animal")
        .order_by("-bitten_at", "-pk")[:LIST_LIMIT]
    )
    return render(
        request,
        "rabies/dashboard.html",
        {
            "bites": bites,
            "quarantines": [(q, q.days_left(today)) for q in quarantines],
            "exposures": exposures,
            "late": late,
            "today": today,
            "show_city": multi_city(request.user),
            "may_act": request.user.has_role(*ACTING_ROLES),
            "report_bite_url": reverse("rabies:bite_report"),
            "overdue_url": reverse("rabies:vaccinations_overdue"),
        },
    )


urlpatterns = [path("", dashboard, name="dashboard")]
