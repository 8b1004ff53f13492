"""The permit rows of tests/test_every_page.py's page table.

The world holds Glencoe's permits only (North Branch's ordinance has none): a horse
permit issued on the world's day and a temporary wild-animal permit waiting for its
decision. ``GL_RECORD_PAGES`` names the pages whose record is Glencoe's, so the
other-city check uses North Branch staff for them.
"""

from dataclasses import dataclass
from datetime import date


@dataclass
class PermitsWorld:
    horse: object  # issued (fee set to $0.00 by resolution)
    temporary: object  # applied, waiting for the decision
    premises: object = None  # a Glencoe premises with a pig, the horse permit, an exemption
    exemption: object = None  # a veterinary hospital's exemption (Subd. 32(B)), in force


def build_permits_world(*, gl, actor, today: date) -> PermitsWorld:
    from permits.services import horses, temporary
    from tests.permits.helpers import horse_fields, set_horse_fee, temporary_fields

    set_horse_fee(gl, "0.00", effective_from=date(today.year, 1, 1))
    horse = horses.horse_apply(jurisdiction=gl, actor=actor, on=today, **horse_fields())
    horse = horses.horse_checks_record(
        permit=horse, shelter_ok=True, grazing_ok=True, sanitation_ok=True, note="", actor=actor
    )
    horse = horses.horse_council_decide(
        permit=horse,
        decision="approved",
        council_date=today,
        resolution_number="Res. 2026-31",
        reasons="",
        actor=actor,
    )
    horse = horses.horse_issue(permit=horse, actor=actor)
    show = temporary.temporary_apply(
        jurisdiction=gl,
        actor=actor,
        on=today,
        **temporary_fields(
            starts_on=date(today.year, 6, 1),
            ends_on=date(today.year, 6, 30),
        ),
    )
    premises, exemption = _register_world(gl, actor, today, horse)
    return PermitsWorld(horse=horse, temporary=show, premises=premises, exemption=exemption)


def _register_world(gl, actor, today, horse):
    """The register's world: a premises keeping a pot-bellied pig, named by the horse
    permit, with a veterinary exemption recorded."""
    from licensing.services import registry
    from permits.services import register

    owner = registry.owner_create(
        jurisdiction=gl,
        actor=actor,
        first_name="Vera",
        last_name="Zzgl Vet",
        address_line="800 Hospital Dr",
        city="Glencoe",
        postal_code="55336",
    )
    pig = registry.animal_register(
        owner=owner, actor=actor, on=today, species="other", kind="pot_bellied_pig", name="Hamlet"
    )
    register.permit_link_premises(permit=horse, premises=pig.premises, actor=actor)
    exemption = register.exemption_record(
        premises=pig.premises,
        basis="veterinary",
        holder_name="Glencoe Veterinary Hospital",
        protective_devices_confirmed=True,
        confirmed_by_name="Officer Olson",
        evidence="Double-door kennels seen on inspection.",
        starts_on=today,
        actor=actor,
    )
    return pig.premises, exemption


PERMIT_PAGES = {
    "permits:list": (lambda w: [], {}),
    "permits:temporary_apply": (lambda w: [], {}),
    "permits:horse_apply": (lambda w: [], {}),
    "permits:temporary_detail": (lambda w: [w.permits.temporary.pk], {}),
    "permits:temporary_decide": (lambda w: [w.permits.temporary.pk], {"*": 405}),
    "permits:horse_detail": (lambda w: [w.permits.horse.pk], {}),
    "permits:horse_checks": (lambda w: [w.permits.horse.pk], {"*": 405}),
    "permits:horse_council": (lambda w: [w.permits.horse.pk], {"*": 405}),
    "permits:horse_issue": (lambda w: [w.permits.horse.pk], {"*": 405}),
    # The register.
    "permits:register": (lambda w: [], {}),
    "permits:exemption_new": (lambda w: [w.permits.premises.pk], {}),
    "permits:exemption_end": (lambda w: [w.permits.exemption.pk], {}),
    "permits:permit_link": (lambda w: [w.permits.premises.pk], {"*": 405}),
}

# Every permit page with a record in its URL shows a Glencoe record.
GL_RECORD_PAGES = {name for name in PERMIT_PAGES if name.split(":")[1].split("_")[-1] != "apply"}
GL_RECORD_PAGES.discard("permits:list")
GL_RECORD_PAGES.discard("permits:register")
