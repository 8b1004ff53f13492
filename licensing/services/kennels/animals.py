"""The animals kept under a kennel license: listed and removed, with dates."""

from datetime import date, datetime

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import Animal, KennelAnimal
from licensing.services.kennels.common import record_event, refused
from ordinance.refusals import refusing


@refusing()
def kennel_animal_add(
    *, kennel, animal: Animal, on: date, actor, now: datetime | None = None
) -> KennelAnimal:
    """List an animal under the license; one that was removed earlier is listed again
    (the history keeps both periods)."""
    if animal.jurisdiction_id != kennel.jurisdiction_id:
        raise refused(_("That animal is registered in another city."), kennel)
    member = kennel.kennel_animals.filter(animal=animal).first()
    if member is not None and member.removed_on is None:
        raise refused(_("That animal is already listed under this kennel license."), kennel)
    if member is None:
        member = KennelAnimal.objects.create(kennel_license=kennel, animal=animal, added_on=on)
    else:
        member.added_on, member.removed_on = on, None
        member.save(update_fields=["added_on", "removed_on"])
    record_event(
        "licensing.kennel.animal_added", kennel, actor, f"{animal} added", at=now, animal=animal.pk
    )
    return member


@refusing()
def kennel_animal_remove(
    *, kennel, animal: Animal, on: date, actor, now: datetime | None = None
) -> KennelAnimal:
    """The animal is no longer kept under the license (sold, died, moved): ``removed_on``."""
    member = kennel.kennel_animals.filter(animal=animal, removed_on__isnull=True).first()
    if member is None:
        raise refused(_("That animal is not listed under this kennel license."), kennel)
    if on < member.added_on:
        raise refused(
            _("The removal cannot come before the animal was added (%(d)s).")
            % {"d": date_format(member.added_on)},
            kennel,
        )
    member.removed_on = on
    member.save(update_fields=["removed_on"])
    record_event(
        "licensing.kennel.animal_removed",
        kennel,
        actor,
        f"{animal} removed",
        at=now,
        animal=animal.pk,
        on=on.isoformat(),
    )
    return member
