"""``{% reported_changes animal as changes %}``: the resident's own reports about an
animal and the kinds they may report now, for ``portal/_changes.html`` (issue 12)."""

from dataclasses import dataclass

from django import template
from django.utils import timezone

from licensing.models import ChangeKind, ReportedChange
from licensing.services.changes import NEEDS_LICENSE

register = template.Library()


@dataclass
class ResidentChanges:
    reports: list
    kinds: list  # (value, label) the resident may report now
    licensed: bool


@register.simple_tag(takes_context=True)
def reported_changes(context, animal):
    user = context["request"].user
    reports = list(
        ReportedChange.objects.filter(animal=animal, owner__user=user).order_by(
            "-submitted_at", "-pk"
        )
    )
    if not animal.is_alive():
        return ResidentChanges(reports, [], False)
    # From the licenses the page prefetched (no query of its own).
    today = timezone.localdate()
    licensed = any(lic.is_current(today) for lic in animal.licenses.all())
    kinds = [(k.value, k.label) for k in ChangeKind if licensed or k not in NEEDS_LICENSE]
    return ResidentChanges(reports, kinds, licensed)
