"""A demo veterinary clinic, made through the clinic services: Lakes Area
Veterinary Clinic serves both cities, the demo ``vet`` login is its person, and it has
sent rabies certificates this week: most matched to demo dogs on their own (microchip,
owner and address), one for an owner the registry does not know and one for a dog whose
owner moved, both waiting in the clerk's queue. Loaded once; a second run adds nothing.
"""

from collections import Counter
from datetime import datetime

from django.utils import timezone

from clinics.forms import FORM51_FIELDS, CertificateForm
from clinics.models import Clinic, ClinicMember, ClinicVeterinarian
from clinics.services.certificates import certificate_submit
from licensing.models import Animal, AnimalStatus
from licensing.models.registry import RabiesVaccination

from .scene import scene_days

CLINIC_NAME = "Lakes Area Veterinary Clinic"
VETERINARIANS = [("Dr. Ada Lind", "MN-4411"), ("Dr. Samir Haddad", "MN-5820")]
MATCHED_PER_CITY = 3


def _fields(clinic, animal=None, **values) -> dict:
    """The certificate as the clinic's form cleans it (the demo types what a clinic would)."""
    owner = animal.owner if animal else None
    data = {
        "owner_first_name": owner.first_name if owner else "",
        "owner_last_name": owner.last_name if owner else "",
        "owner_address": owner.address_line if owner else "",
        "owner_city": "",
        "owner_postal_code": "",
        "owner_phone": "",
        "animal_name": animal.name if animal else "",
        "species": animal.species if animal else "dog",
        "breed": animal.breed if animal else "",
        "color": animal.color if animal else "",
        "sex": "",
        "microchip": animal.microchip if animal else "",
        "vaccinated_on": "",
        "duration_years": str(RabiesVaccination.Duration.THREE_YEARS),
        "next_due_on": "",
        "manufacturer": "Zoetis",
        "product": "Defensor 3",
        "lot_number": "DEMO-24",
        "lot_expires_on": "",
        "rabies_tag_number": "",
        "veterinarian_name": VETERINARIANS[0][0],
        "veterinarian_license": VETERINARIANS[0][1],
        **values,
    }
    form = CertificateForm(data, clinic=clinic)
    if not form.is_valid():
        raise ValueError(f"demo certificate refused: {form.errors.as_json()}")
    return {k: form.cleaned_data[k] for k in FORM51_FIELDS}


def _clinic(jurisdictions, vet, now) -> Clinic:
    clinic = Clinic.objects.create(
        name=CLINIC_NAME,
        address_line="38620 Forest Blvd",
        city="North Branch",
        postal_code="55056",
    )
    clinic.jurisdictions.set(jurisdictions)
    for name, number in VETERINARIANS:
        ClinicVeterinarian.objects.create(clinic=clinic, name=name, license_number=number)
    ClinicMember.objects.create(user=vet, clinic=clinic, invited_at=now - scene_days(30))
    return clinic


def fill_demo_clinics(jurisdictions, *, users: dict, now: datetime) -> Counter:
    made = Counter()
    if Clinic.objects.filter(name=CLINIC_NAME).exists():
        return made
    vet = users["vet"]
    clinic = _clinic(jurisdictions, vet, now)
    sent_at = now - scene_days(2)
    vaccinated_on = str(timezone.localdate(sent_at))
    for city in jurisdictions:
        dogs = list(
            Animal.objects.filter(
                jurisdiction=city, species="dog", status=AnimalStatus.ALIVE, microchip__gt=""
            )
            .exclude(owner__address_line="")
            .select_related("owner")
            .order_by("-pk")[: MATCHED_PER_CITY + 1]
        )
        for dog in dogs[:MATCHED_PER_CITY]:
            certificate_submit(
                clinic=clinic,
                jurisdiction=city,
                actor=vet,
                now=sent_at,
                **_fields(clinic, dog, vaccinated_on=vaccinated_on),
            )
            made[city.slug] += 1
        if len(dogs) > MATCHED_PER_CITY:
            mover = dogs[MATCHED_PER_CITY]
            certificate_submit(  # the owner moved: too weak a match, the clerk decides
                clinic=clinic,
                jurisdiction=city,
                actor=vet,
                now=sent_at,
                **_fields(
                    clinic,
                    mover,
                    microchip="",
                    owner_address="4410 Birch Lake Road",
                    vaccinated_on=vaccinated_on,
                ),
            )
            made[city.slug] += 1
        certificate_submit(  # an owner the registry does not know yet
            clinic=clinic,
            jurisdiction=city,
            actor=vet,
            now=sent_at,
            **_fields(
                clinic,
                owner_first_name="Lena",
                owner_last_name="Okafor",
                owner_address="77 Prairie View Lane",
                animal_name="Juniper",
                breed="Border Collie",
                color="Black and white",
                vaccinated_on=vaccinated_on,
            ),
        )
        made[city.slug] += 1
    return made
