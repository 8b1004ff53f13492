"""Rabies vaccination reminders (RAB-03): ``rabies.vaccination_reminders``.

One e-mail to the owner per vaccination (a ``VaccinationReminder`` row, one-to-one on the
vaccination), sent when the animal's latest vaccination runs out within the lead days
(the setting RABIES_REMINDER_LEAD_DAYS, not an ordinance value): that is, when licensing's
answer (``vaccination_status``) is "due soon" for that vaccination. Never for an animal
that is dead or moved out, a species the ordinance does not require, a vaccination a
later one superseded, or an owner without an e-mail address. Run twice, nothing is sent
twice; after days down, a vaccination still due soon is reminded once and one that has
run out meanwhile is not (it shows on the overdue list instead).
"""

import logging
from datetime import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import Animal, RabiesVaccination
from licensing.services.vaccination import (
    Vaccination,
    animals_owing,
    statuses_for,
    vaccination_prefetch,
)
from ordinance.deadlines import register_sweep
from ordinance.models import Event, Jurisdiction
from ordinance.sweeps import run_sweep
from rabies.models import VaccinationReminder

logger = logging.getLogger(__name__)


def due_reminders(on) -> dict[int, object]:
    """{vaccination pk: status} of the latest vaccinations due soon on ``on`` whose owner
    has an e-mail address and that have not been reminded."""
    cities = list(Jurisdiction.objects.all())
    rules_by_city: dict[int, dict] = {}
    animals = list(
        vaccination_prefetch(
            animals_owing(
                Animal.objects.exclude(owner__email=""),
                cities,
                on=on,
                due_soon=True,
                rules_by_city=rules_by_city,
            )
            .filter(latest_due__gte=on)
            .select_related("owner")
        )
    )
    found = {}
    for status in statuses_for(animals, on=on, rules_by_city=rules_by_city).values():
        if status.state == Vaccination.DUE_SOON and status.vaccination is not None:
            found[status.vaccination.pk] = status
    reminded = set(
        VaccinationReminder.objects.filter(vaccination_id__in=found).values_list(
            "vaccination_id", flat=True
        )
    )
    return {pk: status for pk, status in found.items() if pk not in reminded}


def send_reminder(
    vaccination: RabiesVaccination, status, at: datetime
) -> VaccinationReminder | None:
    """E-mail the owner and record the reminder; a failed send records an Event and no
    reminder, so the next run tries again."""
    animal = vaccination.animal
    owner, city = animal.owner, animal.jurisdiction
    context = {
        "owner": owner,
        "animal": animal,
        "vaccination": vaccination,
        "due_on": status.due_on,
        "citation": status.citation,
        "city": city,
    }
    subject = _("%(city)s: rabies vaccination of %(animal)s due by %(due)s") % {
        "city": city.short_name,
        "animal": animal.name,
        "due": date_format(status.due_on),
    }
    body = render_to_string("rabies/emails/vaccination_reminder.txt", context)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [owner.email]).send()
    except Exception as exc:  # logged and retried on the next run
        logger.exception("Vaccination reminder for vaccination %s failed", vaccination.pk)
        Event.record(
            "rabies.vaccination.reminder_failed",
            animal,
            at=at,
            summary=f"Rabies vaccination reminder to {owner.email} not sent",
            data={"vaccination": vaccination.pk, "error": exc.__class__.__name__},
        )
        return None
    reminder = VaccinationReminder.objects.create(
        vaccination=vaccination,
        jurisdiction=city,
        due_on=status.due_on,
        sent_to=owner.email,
        sent_at=at,
    )
    Event.record(
        "rabies.vaccination.reminded",
        animal,
        at=at,
        summary=(
            f"Rabies vaccination reminder e-mailed to {owner.email}: due by "
            f"{status.due_on:%Y-%m-%d} ({status.citation})"
        ),
        data={
            "vaccination": vaccination.pk,
            "due_on": status.due_on.isoformat(),
            "to": owner.email,
            "citation": status.citation,
        },
    )
    return reminder


@register_sweep("rabies.vaccination_reminders")
def sweep_vaccination_reminders(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    statuses = due_reminders(today)
    return run_sweep(
        name="rabies vaccination reminders",
        action="rabies.vaccination.reminded",
        due=RabiesVaccination.objects.filter(
            pk__in=list(statuses), reminder__isnull=True
        ).select_related("animal__owner", "animal__jurisdiction"),
        still_applies=lambda v: not VaccinationReminder.objects.filter(vaccination=v).exists(),
        transition=lambda v, at: send_reminder(v, statuses[v.pk], at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )
