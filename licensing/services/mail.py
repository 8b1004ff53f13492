"""E-mails to the resident about their online application: returned (with
what to fix), approved (the amount due) and issued. Sent after commit, so a rolled-back
decision sends nothing; a failed send is logged and recorded, never undoes the decision."""

import logging

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from ordinance.models import Event

logger = logging.getLogger(__name__)

SUBJECTS = {
    "returned": lambda a: _("%(city)s: your application for %(animal)s needs a correction"),
    "approved": lambda a: _("%(city)s: your application for %(animal)s is approved"),
    "issued": lambda a: _("%(city)s: the license of %(animal)s is issued"),
    "certificate_arrived": lambda a: _(
        "%(city)s: the rabies certificate of %(animal)s arrived from the clinic"
    ),
}


def recipient(application) -> str:
    return application.submitted_by.email or application.owner.email


def application_mail(application, what: str) -> None:
    """Queue the e-mail saying ``what`` happened (returned, approved, issued)."""
    pk = application.pk
    transaction.on_commit(lambda: _send(pk, what))


def _send(pk, what) -> None:
    from licensing.models import OnlineApplication

    application = OnlineApplication.objects.select_related(
        "animal", "owner", "jurisdiction", "submitted_by", "license"
    ).get(pk=pk)
    to = recipient(application)
    if not to:
        return
    city = application.jurisdiction
    subject = SUBJECTS[what](application) % {
        "city": city.short_name,
        "animal": application.animal.name,
    }
    link = getattr(settings, "SITE_URL", "").rstrip("/") + reverse(
        "licensing:application_detail", args=[pk]
    )
    body = render_to_string(
        f"licensing/emails/application_{what}.txt",
        {"application": application, "city": city, "link": link},
    )
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]).send()
    except Exception as exc:  # the decision stands; the clerk sees the Event
        logger.exception("Application e-mail %s for %s failed", what, pk)
        Event.record(
            "licensing.application.mail_failed",
            application,
            jurisdiction=city,
            summary=f"E-mail ({what}) to {to} not sent",
            data={"error": exc.__class__.__name__},
        )
