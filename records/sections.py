"""Sections records fills on pages of the apps below it (base.sections)."""

from base.roles import STAFF_ROLES


def license_imported(request, *, license):
    """On an imported license's page: "Imported from <source>, <date>" (issue 19 item 1):
    the license keeps its old number, term and tag, and no receipt was made for it."""
    return _imported(request, "licensing.license", license)


def kennel_imported(request, *, kennel):
    """The same on an imported kennel license's page (issue 19 item 1)."""
    return _imported(request, "licensing.kennellicense", kennel)


def _imported(request, label: str, license):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.has_role(*STAFF_ROLES):
        return None
    from .models import ImportAction, ImportRecord

    record = (
        ImportRecord.objects.filter(
            target_model=label,
            target_pk=license.pk,
            action=ImportAction.CREATED,
            jurisdiction_id=license.jurisdiction_id,
        )
        .select_related("batch")
        .first()
    )
    if record is None:
        return None
    return "records/_license_imported.html", {"batch": record.batch}
