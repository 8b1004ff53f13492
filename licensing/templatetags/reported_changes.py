"""``{% reported_changes animal as changes %}``: the resident's own reports about an
animal and the kinds they may report now, for ``portal/_changes.html``."""

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
    earlier: int = 0  # reports before the latest, listed on the latest's page


LATEST = ("pk", "kind", "status", "submitted_at", "handled_note")


def with_latest_report(animals, user):
    """Annotate each animal with the resident's latest report about it and the count, in
    the animal's own query (the animal page stays within ten queries)."""
    from django.db.models import Count, IntegerField, OuterRef, Subquery

    mine = ReportedChange.objects.filter(animal=OuterRef("pk"), owner__user=user).order_by(
        "-submitted_at", "-pk"
    )
    count = (
        ReportedChange.objects.filter(animal=OuterRef("pk"), owner__user=user)
        .order_by()
        .values("animal")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return animals.annotate(
        report_count=Subquery(count, output_field=IntegerField()),
        **{f"latest_report_{name}": Subquery(mine.values(name)[:1]) for name in LATEST},
    )


def _latest_from_annotations(animal) -> tuple[list, int]:
    if not getattr(animal, "report_count", None):
        return [], 0
    latest = ReportedChange(
        animal_id=animal.pk,
        **{name: getattr(animal, f"latest_report_{name}") for name in LATEST},
    )
    return [latest], animal.report_count - 1


@register.simple_tag(takes_context=True)
def reported_changes(context, animal):
    user = context["request"].user
    earlier = 0
    if hasattr(animal, "report_count"):
        reports, earlier = _latest_from_annotations(animal)
    else:
        reports = list(
            ReportedChange.objects.filter(animal=animal, owner__user=user).order_by(
                "-submitted_at", "-pk"
            )
        )
    if not animal.is_alive():
        return ResidentChanges(reports, [], False, earlier)
    # From the licenses the page prefetched (no query of its own).
    today = timezone.localdate()
    licensed = any(lic.is_current(today) for lic in animal.licenses.all())
    kinds = [(k.value, k.label) for k in ChangeKind if licensed or k not in NEEDS_LICENSE]
    return ResidentChanges(reports, kinds, licensed, earlier)
