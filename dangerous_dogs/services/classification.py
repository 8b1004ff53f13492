"""North Branch: an officer's classification of a dog as fierce, dangerous or vicious (DD-29).

North Branch's ordinance defines none of the three terms and has no notice, hearing or
registration (rules.md section 5). Sec. 6-73 only puts a duty on the owner of such a dog
(confined, muzzled outside; RES-10), and Sec. 6-75 impounds one found at large behind a
court's authorization (IMP-08). So the record is a person's decision with its reason and
evidence; it runs where the profile has ``fierce_dog_duty`` (an optional rule). Glencoe has
none: a dog there is declared through the Subd. 15 proceeding. A classification is ended,
never deleted.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.roles import ADMINISTRATOR, OFFICER
from dangerous_dogs.models import Classification, ClassificationTerm
from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.models import Animal, Species
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import Rule, rule_in_force

from .common import PROCEDURE_KEY

DUTY_KEY = "fierce_dog_duty"


def duty_or_refuse(animal: Animal, *, on: date) -> Rule:
    """The Sec. 6-73 duty of the dog's city; refused where the ordinance has none."""
    jurisdiction = animal.jurisdiction
    duty = rule_in_force(jurisdiction, DUTY_KEY, on=on, optional=True)
    if duty is None:
        procedure = rule_in_force(jurisdiction, PROCEDURE_KEY, on=on, optional=True)
        raise Refused.because(
            _("Classification"),
            _(
                "%(city)s's ordinance has no fierce, dangerous or vicious classification: "
                "use the Subd. 15 proceeding (open a dangerous-dog case) instead."
            )
            % {"city": jurisdiction},
            procedure.citation if procedure else "",
        )
    return duty


def _check_actor(actor, jurisdiction) -> None:
    refuse_unless_serves(actor, jurisdiction)
    if not actor.has_role(OFFICER, ADMINISTRATOR):
        raise Refused.because(
            _("Classification"),
            _("Only an animal control officer or an administrator classifies a dog."),
        )


@dataclass(frozen=True)
class ClassificationFacts:
    """What the officer decided and why (the form's cleaned data)."""

    term: str
    reason: str
    classified_on: date
    classified_by_name: str
    evidence: str = ""
    file: object = None


@refusing()
@transaction.atomic
def classification_record(
    *,
    animal: Animal,
    actor,
    facts: ClassificationFacts | None = None,
    at: datetime | None = None,
    **fields,
) -> Classification:
    """Record that an officer classified ``animal`` fierce, dangerous or vicious (Sec. 6-73).

    ``facts``: the classification (or its fields as keywords, as the demo passes them)."""
    facts = facts or ClassificationFacts(**fields)
    at = at or timezone.now()
    _check_actor(actor, animal.jurisdiction)
    duty = duty_or_refuse(animal, on=timezone.localdate(at))
    animal = Animal.objects.select_for_update().get(pk=animal.pk)
    _check_dog(animal, duty)
    _check_facts(facts, duty, timezone.localdate(at))
    _check_none_standing(animal)
    classification = Classification(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        term=facts.term,
        reason=facts.reason.strip(),
        evidence=facts.evidence.strip(),
        classified_on=facts.classified_on,
        classified_by_name=facts.classified_by_name.strip(),
        citation=duty.citation,
        recorded_by=actor,
    )
    if facts.file:
        classification.evidence_file = facts.file
    classification.save()
    Event.record(
        "dangerous_dogs.classification.recorded",
        classification,
        actor=actor,
        at=at,
        summary=_("%(name)s classified %(term)s on %(date)s by %(officer)s (%(section)s)")
        % {
            "name": animal.name,
            "term": classification.get_term_display().lower(),
            "date": date_format(facts.classified_on),
            "officer": classification.classified_by_name,
            "section": duty.citation,
        },
        data={"animal": animal.pk, "term": facts.term, "classified_on": str(facts.classified_on)},
    )
    return classification


def _check_dog(animal: Animal, duty: Rule) -> None:
    if animal.species != Species.DOG:
        raise Refused.because(
            _("Classification"),
            _("Sec. 6-73 speaks of dogs only; %(name)s is a %(species)s.")
            % {"name": animal.name, "species": animal.get_species_display().lower()},
            duty.citation,
        )
    if not animal.is_alive():
        raise Refused.because(
            _("Classification"),
            _("%(name)s is recorded as %(status)s.")
            % {"name": animal.name, "status": animal.get_status_display().lower()},
        )


def _check_facts(facts: ClassificationFacts, duty: Rule, today: date) -> None:
    if facts.term not in ClassificationTerm.values:
        raise Refused.because(
            _("Classified as"), _("Choose fierce, dangerous or vicious."), field="term"
        )
    if not facts.reason.strip():
        raise Refused.because(
            _("Reason"),
            _("Say why the dog is %(term)s: the ordinance defines none of the terms.")
            % {"term": ClassificationTerm(facts.term).label.lower()},
            duty.citation,
            field="reason",
        )
    if not facts.classified_by_name.strip():
        raise Refused.because(
            _("Officer"), _("Name the officer who classified the dog."), field="classified_by_name"
        )
    refuse_if_future(facts.classified_on, _("Classified on"), field="classified_on", today=today)


def _check_none_standing(animal: Animal) -> None:
    standing = animal.classifications.filter(ended_on__isnull=True).first()
    if standing is not None:
        raise Refused.because(
            _("Classification"),
            _("%(name)s is classified %(term)s since %(date)s already; end that first.")
            % {
                "name": animal.name,
                "term": standing.get_term_display().lower(),
                "date": date_format(standing.classified_on),
            },
            standing.citation,
        )


@refusing()
@transaction.atomic
def classification_end(
    *,
    classification: Classification,
    ended_on: date,
    reason: str,
    actor,
    at: datetime | None = None,
) -> Classification:
    """End a classification (a person's decision, with its reason); the record stays."""
    at = at or timezone.now()
    today = timezone.localdate(at)
    classification = Classification.objects.select_for_update().get(pk=classification.pk)
    _check_actor(actor, classification.jurisdiction)
    if not classification.in_force:
        raise Refused.because(
            _("Classification"),
            _("This classification was ended on %(date)s already.")
            % {"date": date_format(classification.ended_on)},
        )
    refuse_if_future(ended_on, _("Ended on"), field="ended_on", today=today)
    if ended_on < classification.classified_on:
        raise Refused.because(
            _("Ended on"),
            _("The classification began on %(date)s; it cannot end before.")
            % {"date": date_format(classification.classified_on)},
            field="ended_on",
        )
    if not reason.strip():
        raise Refused.because(_("Why ended"), _("Say why the classification ends."), field="reason")
    classification.ended_on = ended_on
    classification.ended_reason = reason.strip()[:300]
    classification.save(update_fields=["ended_on", "ended_reason"])
    Event.record(
        "dangerous_dogs.classification.ended",
        classification,
        actor=actor,
        at=at,
        summary=_("Classification %(term)s ended on %(date)s: %(reason)s")
        % {
            "term": classification.get_term_display().lower(),
            "date": date_format(ended_on),
            "reason": classification.ended_reason,
        },
        data={"ended_on": str(ended_on)},
    )
    return classification
