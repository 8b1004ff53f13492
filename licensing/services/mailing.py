"""The tag mailing list: issued online licenses whose metal tag is not yet
mailed, as a printable PDF (WeasyPrint, the documents' renderer) with the owner's name
and mailing address, the tag number and the license number. The data is frozen into a
snapshot first and rendered from it (style.md, "Documents"); it is a working list, not
an issued document, so it is not archived. The clerk marks the listed tags mailed after
printing (``applications_mark_mailed``)."""

from datetime import datetime

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from licensing.models import OnlineApplication, Tag
from licensing.models.online import ApplicationStatus
from notices.services import document_render


def to_mail(user):
    """The user's cities' issued online licenses whose tag is not mailed yet."""
    return OnlineApplication.objects.for_user(user).filter(
        status=ApplicationStatus.ISSUED,
        tag_mailed_at__isnull=True,
        license__isnull=False,
    )


def mailing_rows(user) -> list[dict]:
    applications = (
        to_mail(user)
        .select_related("owner", "license", "jurisdiction", "animal")
        .prefetch_related(
            Prefetch("license__tags", queryset=Tag.objects.order_by("-year", "number"))
        )
        .order_by("jurisdiction__name", "owner__last_name", "owner__first_name", "pk")
    )
    rows = []
    for a in applications:
        tag = a.license.current_tag
        owner = a.owner
        rows.append(
            {
                "application": a.pk,
                "city": a.jurisdiction.name,
                "name": owner.name,
                "street": f"{owner.address_line}{' ' + owner.unit if owner.unit else ''}",
                "place": f"{owner.city}, {owner.state} {owner.postal_code}",
                "animal": a.animal.name,
                "tag": f"{tag.number} ({tag.year})" if tag else "",
                "license": a.license.number,
            }
        )
    return rows


def mailing_list_pdf(user, *, now: datetime) -> bytes:
    cities = list(user.served_jurisdictions().order_by("name"))
    city = cities[0] if len(cities) == 1 else None
    snapshot = {
        "jurisdiction": {
            "name": city.name if city else ", ".join(c.name for c in cities),
            "address": getattr(city, "address", "") if city else "",
            "phone": getattr(city, "phone", "") if city else "",
        },
        "document": {
            "title": _("Tag mailing list"),
            "issued_at": now,
            "issued_by": {"name": user.get_full_name() or user.username},
        },
        "rows": mailing_rows(user),
    }
    return document_render(template="tag_mailing_list.html", snapshot=snapshot)
