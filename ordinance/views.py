"""Staff pages of the rulebook: the profile in force, its history, amendments, fees."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.access import role_required
from base.roles import ADMINISTRATOR, STAFF_ROLES

from . import selectors
from .amendments import rule_amend
from .forms import AmendmentForm
from .rules import profile_for
from .species import CATEGORY_LABELS, species_table


def _served(user, slug):
    """The jurisdiction ``slug`` if this user serves it; 404 otherwise (deny by default)."""
    jurisdiction = user.served_jurisdictions().filter(slug=slug).first()
    if jurisdiction is None:
        raise Http404
    return jurisdiction


@role_required(*STAFF_ROLES)
def profile_list(request):
    today = timezone.localdate()
    cities = selectors.rules_in_force(request.user.served_jurisdictions(), on=today)
    return render(
        request,
        "ordinance/profile_list.html",
        {
            "cities": cities,
            "today": today,
            "multi": len(cities) > 1,
        },
    )


@role_required(*STAFF_ROLES)
def profile_detail(request, slug):
    jurisdiction = _served(request.user, slug)
    today = timezone.localdate()
    city = selectors.rule_history(jurisdiction, on=today)
    return render(
        request,
        "ordinance/profile_detail.html",
        {
            "city": city,
            "today": today,
            "can_amend": request.user.has_role(ADMINISTRATOR),
            # The species table (Subd. 1(R); WLD-01): what registering a species means.
            "species": list(species_table(jurisdiction).values()),
            "category_labels": CATEGORY_LABELS,
        },
    )


@role_required(ADMINISTRATOR)
def rule_amend_view(request, slug, key):
    jurisdiction = _served(request.user, slug)
    profile = profile_for(jurisdiction)
    spec = profile.values.get(key)
    if spec is None:
        raise Http404
    form = AmendmentForm(request.POST or None, spec=spec, adopted=profile.adopted)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rule_amend(
            jurisdiction=jurisdiction,
            key=key,
            value=data["value"],
            effective_from=data["effective_from"],
            ordinance_ref=data["ordinance_ref"],
            citation=data["citation"],
            note=data["note"],
            actor=request.user,
        )
        messages.success(
            request,
            _("Recorded: %(label)s, in force from %(date)s.")
            % {"label": spec.label, "date": date_format(data["effective_from"])},
        )
        return redirect(f"{jurisdiction_url(jurisdiction)}#rule-{key}")
    city = selectors.rule_history(jurisdiction, on=timezone.localdate())
    line = next(line for line in city.lines if line.spec.key == key)
    return render(
        request,
        "ordinance/rule_amend.html",
        {
            "jurisdiction": jurisdiction,
            "line": line,
            "form": form,
        },
        status=400 if request.method == "POST" else 200,
    )


def jurisdiction_url(jurisdiction):
    return reverse("ordinance:profile_detail", args=[jurisdiction.slug])


@role_required(*STAFF_ROLES)
def fee_schedule(request):
    today = timezone.localdate()
    cities = selectors.fee_tables(request.user.served_jurisdictions(), on=today)
    return render(
        request,
        "ordinance/fee_schedule.html",
        {
            "cities": cities,
            "today": today,
            "multi": len(cities) > 1,
            "can_edit": request.user.has_role(ADMINISTRATOR),
        },
    )
