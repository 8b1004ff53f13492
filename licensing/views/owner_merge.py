"""Merging two owner records of the same city: from the owner's
record, find the duplicate by search, see what moves, confirm. Thin: the rules are in
``licensing.services.owner_merge``."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import get_in_jurisdiction, role_required
from base.roles import ADMINISTRATOR, CLERK
from licensing.models import Owner
from licensing.selectors import owner_choices
from licensing.services.owner_merge import owner_merge, owner_merge_preview
from ordinance.refusals import Refused

COUNTER = (CLERK, ADMINISTRATOR)


def _owner(request, pk):
    return get_in_jurisdiction(Owner.objects.select_related("jurisdiction"), request.user, pk=pk)


@role_required(*COUNTER)
def owner_merge_search(request, pk):
    """Step 1: the record that stays is this one; search its city for the duplicate."""
    owner = _owner(request, pk)
    query = request.GET.get("q", "").strip()[:100]
    found = (
        owner_choices(
            user=request.user, jurisdiction=owner.jurisdiction, query=query, exclude_pk=owner.pk
        )
        if query
        else []
    )
    return render(
        request,
        "licensing/counter/owner_merge_search.html",
        {"owner": owner, "q": query, "found": [o for o in found if not o.merged_into_id]},
    )


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def owner_merge_confirm(request, pk, duplicate_pk):
    """Step 2: what moves from the duplicate to this record; POST merges."""
    owner = _owner(request, pk)
    # Another city's record is a 404, as anywhere: the service refuses a cross-city pair
    # too (an administrator serving both cities).
    duplicate = _owner(request, duplicate_pk)
    error = None
    if request.method == "POST":
        try:
            moved = owner_merge(survivor=owner, duplicate=duplicate, actor=request.user)
        except Refused as exc:
            error = exc
        else:
            messages.success(
                request,
                _("%(dup)s merged into this record: %(n)s records moved.")
                % {"dup": duplicate.name, "n": sum(moved.values())},
            )
            return redirect(owner)
    return render(
        request,
        "licensing/counter/owner_merge_confirm.html",
        {
            "owner": owner,
            "duplicate": duplicate,
            "preview": owner_merge_preview(duplicate),
            "error": error,
            "same_city": owner.jurisdiction_id == duplicate.jurisdiction_id,
        },
    )
