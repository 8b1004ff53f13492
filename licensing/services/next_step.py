"""What a resident has to do next for an animal: the one answer both portal pages show.

Nothing is decided here that another service already decides. The license part reads
the one standing (``licensing.services.standing``: LIC-01, LIC-02, LIC-07, LIC-13, with
the renewal window from the profile's ``renewal_window_days_before_term``) and the
city's ``licensing_status`` (LIC-16: Glencoe 701 Subd. 2(D) was deleted, so no license
is offered there, and the page says so with the section). The vaccination part reads
``vaccination_status`` (RAB-01..06). Each step carries its date and its section.
"""

from dataclasses import dataclass
from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import OnlineApplication
from licensing.models.online import OPEN_APPLICATION_STATUSES, ApplicationKind
from licensing.services.assessment import licensing_status
from licensing.services.standing import LicenseStanding, Standing, renewal_opening
from licensing.services.vaccination import VaccinationStatus

# The standings in which a license may be applied for online.
APPLY_STATES = (Standing.RENEWAL_OPEN, Standing.EXPIRED, Standing.REQUIRED)


@dataclass(frozen=True)
class Step:
    """One thing due: what, by when, under which section."""

    what: str
    due_on: date | None = None
    citation: str = ""
    urgent: bool = False


@dataclass(frozen=True)
class NextSteps:
    steps: list[Step]
    # The kind of license the resident may apply for online now (None: none offered).
    apply_kind: str | None = None
    open_application: OnlineApplication | None = None

    @property
    def apply_label(self) -> str:
        return (
            _("Renew online") if self.apply_kind == ApplicationKind.RENEWAL else _("Apply online")
        )


def _d(value: date) -> str:
    return date_format(value)


def license_step(
    animal, standing: LicenseStanding, *, rules, city_check
) -> tuple[Step | None, str | None]:
    """(step, kind of application offered) from the standing and the city's licensing."""
    if city_check is not None and city_check.blocks:  # LIC-16: no license in this city
        return Step(
            _("No license to apply for: %(why)s") % {"why": city_check.message},
            citation=city_check.citation,
        ), None
    state = standing.state
    kind = ApplicationKind.RENEWAL if standing.license else ApplicationKind.NEW
    if state == Standing.RENEWAL_OPEN:
        return Step(
            _("Renew the license before it expires on %(d)s.")
            % {"d": _d(standing.license.expires_on)},
            standing.license.expires_on,
            standing.citation,
        ), ApplicationKind.RENEWAL
    if state in (Standing.EXPIRED, Standing.REQUIRED):
        return Step(
            _("A license is required now: apply for one."), None, standing.citation, urgent=True
        ), kind
    if state == Standing.LICENSED and standing.license and not standing.next_license:
        opening = renewal_opening(standing.license, rules, jurisdiction=animal.jurisdiction)
        if opening:
            return Step(
                _("Renewal opens on %(d)s.") % {"d": _d(opening.on)}, opening.on, opening.source
            ), None
    return None, None


def vaccination_step(status: VaccinationStatus) -> Step | None:
    """RAB-01..06: a vaccination owed (overdue, due soon, a new arrival's), by its date."""
    if not status.action_due:
        return None
    if status.due_on is None:
        what = _("Rabies vaccination due.")
    elif status.is_overdue:
        what = _("Rabies vaccination overdue since %(d)s.") % {"d": _d(status.due_on)}
    else:
        what = _("Rabies vaccination due by %(d)s.") % {"d": _d(status.due_on)}
    return Step(what, status.due_on, status.citation, urgent=status.is_overdue)


def next_steps(
    animal,
    *,
    on: date,
    standing: LicenseStanding,
    vaccination: VaccinationStatus,
    rules: dict,
    city_check=None,
    open_application=None,
) -> NextSteps:
    """The steps due for ``animal`` and whether an online application may be made.

    ``city_check`` is ``licensing_status`` for the animal's city and species (see
    ``city_checks``); ``open_application`` the animal's open online application, which
    replaces the offer to apply."""
    steps = []
    kind = None
    if animal.is_alive():
        step, kind = license_step(animal, standing, rules=rules, city_check=city_check)
        if step:
            steps.append(step)
        if step := vaccination_step(vaccination):
            steps.append(step)
    if open_application is not None:
        kind = None
    return NextSteps(steps=steps, apply_kind=kind, open_application=open_application)


def city_checks(animals, *, on: date) -> dict:
    """{(city pk, species): licensing_status Check}, one read per city and species."""
    found = {}
    for animal in animals:
        key = (animal.jurisdiction_id, animal.species)
        if key not in found:
            found[key] = licensing_status(
                jurisdiction=animal.jurisdiction, species=animal.species, on=on
            )
    return found


def with_open_application(animals):
    """Annotate each animal with its open application's id and status (no extra query
    on a page of animals: ``open_applications`` reads the annotations)."""
    from django.db.models import OuterRef, Subquery

    open_apps = OnlineApplication.objects.filter(
        animal=OuterRef("pk"), status__in=OPEN_APPLICATION_STATUSES
    )
    return animals.annotate(
        open_application_pk=Subquery(open_apps.values("pk")[:1]),
        open_application_status=Subquery(open_apps.values("status")[:1]),
    )


def open_applications(animals) -> dict[int, OnlineApplication]:
    """{animal pk: open application}: from ``with_open_application``'s annotations, else
    one query."""
    if animals and all(hasattr(a, "open_application_pk") for a in animals):
        return {
            a.pk: OnlineApplication(
                pk=a.open_application_pk, animal_id=a.pk, status=a.open_application_status
            )
            for a in animals
            if a.open_application_pk
        }
    return {
        a.animal_id: a
        for a in OnlineApplication.objects.filter(
            animal__in=[x.pk for x in animals], status__in=OPEN_APPLICATION_STATUSES
        )
    }
