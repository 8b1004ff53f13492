"""Sections records fills on pages of the apps below it (base.sections)."""

from base.roles import STAFF_ROLES


def license_imported(request, *, license):
    """On an imported license's page: "Imported from <source>, <date>":
    the license keeps its old number, term and tag, and no receipt was made for it."""
    return _imported(request, "licensing.license", license)


def kennel_imported(request, *, kennel):
    """The same on an imported kennel license's page."""
    return _imported(request, "licensing.kennellicense", kennel)


def _imported(request, label: str, license):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    from .models import ImportAction, ImportRecord

    # On every license page, so only the two values the sentence needs.
    found = (
        ImportRecord.objects.filter(
            target_model=label,
            target_pk=license.pk,
            action=ImportAction.CREATED,
            jurisdiction_id=license.jurisdiction_id,
        )
        .order_by("pk")
        .values_list("batch__source_name", "batch__started_at")
        .first()
    )
    if found is None:
        return None
    source_name, started_at = found
    return "records/_license_imported.html", {
        "batch": {"source_name": source_name, "started_at": started_at}
    }
