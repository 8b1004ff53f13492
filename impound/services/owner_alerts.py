"""The owner hears at once (IMP-05, REC-04; NB Sec. 6-68 "every possible
effort to notify the owners"; Glencoe 701 Subd. 14 "the owner shall be notified").

When intake links a registered animal, or the owner is identified later, the owner gets an
e-mail with the claim-by date and its section (``notices.claim_by``, the posted notice's
answer) and the pound's address and hours; and a text message where the city's profile
turns on ``impound_owner_notice_text`` and the installation has a provider
(``notices.sms``). Both go after the case commits, from a Celery task, and each attempt,
sent or not, is a ``ServiceRecord`` on the case beside the officer's calls and letters
(the notice duty's list of attempts). Idempotent: one message per case, owner's address
and channel; a run again (a retried task, the owner identified twice) sends nothing new.
"""

import logging
from datetime import datetime

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from impound.models import CaseStatus, ImpoundCase
from notices import sms
from notices.models import ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.rules import RuleUnavailable, rule_in_force

from .notices import _pound, claim_by, custody_conditions, notice_citation

logger = logging.getLogger(__name__)

TEXT_KEY = "impound_owner_notice_text"
EMAIL_TEMPLATE = "impound/notices/owner_alert_email.txt"
TEXT_TEMPLATE = "impound/notices/owner_alert_text.txt"


def owner_alert_queue(case: ImpoundCase) -> None:
    """Inside the intake's (or identification's) transaction: alert the owner once it
    commits. Nothing where no owner is known."""
    if case.animal_id is None:
        return
    from impound.tasks import owner_alert  # the task calls back into this module

    pk = case.pk
    transaction.on_commit(lambda: owner_alert.delay(pk))


def text_enabled(case: ImpoundCase, *, on) -> bool:
    """Texts go where the installation has a provider and the city turned them on."""
    if not sms.sms_enabled():
        return False
    try:
        rule = rule_in_force(case.jurisdiction, TEXT_KEY, on=on, optional=True)
    except RuleUnavailable:
        return False
    return bool(rule and rule.value)


def _sent_before(case: ImpoundCase) -> set[tuple[str, str]]:
    """(channel, address) of the system's successful alerts on this case."""
    return set(
        ServiceRecord.objects.filter(
            subject_type=ContentType.objects.get_for_model(ImpoundCase),
            subject_id=case.pk,
            method__in=(ServiceMethod.EMAIL, ServiceMethod.TEXT),
            document__isnull=True,
            recorded_by__isnull=True,
            succeeded=True,
        ).values_list("method", "served_to")
    )


def alert_context(case: ImpoundCase, *, on) -> dict:
    deadline = claim_by(case)
    owner, animal = case.owner, case.animal
    return {
        "city": case.jurisdiction.name,
        "owner_name": owner.name,
        "animal_name": animal.name,
        "species": case.get_species_display().lower(),
        "number": case.number,
        "placed_at": timezone.localtime(case.placed_at),
        "claim_by_date": date_format(deadline["date"], "l, F j, Y"),
        "claim_by_time": time_format(deadline["time"], "g:i a"),
        "claim_by_citation": deadline["citation"],
        "available": case.status == CaseStatus.AVAILABLE,
        "conditions": custody_conditions(case, on=on),
        "pound": _pound(case),
        "notice_citation": notice_citation(case.jurisdiction),
    }


def owner_alerts_send(*, case_pk: int, now: datetime | None = None) -> list[ServiceRecord]:
    """Send what has not gone yet and record every attempt (the Celery task's work)."""
    now = now or timezone.now()
    with transaction.atomic(), translation.override(settings.LANGUAGE_CODE):
        # Two runs for one case wait for each other here; the second finds the first's rows.
        case = (
            ImpoundCase.objects.select_for_update(of=("self",))
            .select_related("jurisdiction", "pound", "animal__owner")
            .filter(pk=case_pk)
            .first()
        )
        if case is None or not case.is_open or case.animal_id is None:
            return []
        owner = case.owner
        done = _sent_before(case)
        context = alert_context(case, on=timezone.localdate(now))
        records = []
        if owner.email and (ServiceMethod.EMAIL, owner.email) not in done:
            records.append(_email(case, owner.email, context, now))
        phone = owner.phone.strip()
        if (
            phone
            and (ServiceMethod.TEXT, phone) not in done
            and text_enabled(case, on=timezone.localdate(now))
        ):
            records.append(_text(case, phone, context, now))
        return records


def _email(case, to, context, now) -> ServiceRecord:
    subject = _("%(city)s: your %(species)s is at the pound (case %(n)s)") % {
        "city": context["city"],
        "species": context["species"],
        "n": case.number,
    }
    body = render_to_string(EMAIL_TEMPLATE, context)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]).send()
    except Exception as exc:  # the attempt is kept either way (NB Sec. 6-68)
        logger.exception("Owner alert e-mail for case %s failed", case.pk)
        return _record(case, ServiceMethod.EMAIL, to, now, False, _failed(exc))
    return _record(case, ServiceMethod.EMAIL, to, now, True, _("E-mail sent at intake"))


def _text(case, to, context, now) -> ServiceRecord:
    body = render_to_string(TEXT_TEMPLATE, context).strip()
    try:
        message_id = sms.send_text(to, body)
    except Exception as exc:
        logger.exception("Owner alert text for case %s failed", case.pk)
        return _record(case, ServiceMethod.TEXT, to, now, False, _failed(exc))
    return _record(
        case, ServiceMethod.TEXT, to, now, True, _("Text sent (%(id)s)") % {"id": message_id}
    )


def _failed(exc) -> str:
    return _("Not sent: %(e)s") % {"e": str(exc)[:200] or exc.__class__.__name__}


def _record(case, method, to, now, succeeded, result) -> ServiceRecord:
    record = ServiceRecord.objects.create(
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        method=method,
        served_to=to[:200],
        served_at=now,
        succeeded=succeeded,
        result=result[:300],
    )
    Event.record(
        "impound.notice.owner_alert",
        case,
        at=now,
        summary=f"{record.get_method_display()}: {result}"[:300],
        data={"service_record": record.pk, "method": method, "sent": succeeded},
    )
    return record
