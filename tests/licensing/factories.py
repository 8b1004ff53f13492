"""factory-boy factories for the registry. `.build()` where no database is needed."""

from datetime import date

import factory

from licensing.models import Animal, Owner, Ownership, Premises, RabiesVaccination, Species
from ordinance.models import Jurisdiction


class JurisdictionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Jurisdiction
        django_get_or_create = ("slug",)

    slug = "north-branch"
    name = "City of North Branch"
    short_name = "North Branch"
    profile_key = "north_branch"


class OwnerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Owner

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    first_name = factory.Faker("first_name")
    last_name = factory.Faker("last_name")
    address_line = factory.Sequence(lambda n: f"{100 + n} Main Street")
    city = factory.LazyAttribute(lambda o: o.jurisdiction.short_name)
    postal_code = "55056"
    phone = factory.Sequence(lambda n: f"651-555-{n % 10000:04d}")
    email = factory.LazyAttribute(lambda o: f"{o.first_name}.{o.last_name}@example.org".lower())


class PremisesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Premises

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    # Not Main Street: an animal's premises take its owner's "N Main Street" from the
    # owner's own sequence, and two sequences on one street meet at the same number
    # (premises_unique_address_per_city) after enough rows in a run.
    address_line = factory.Sequence(lambda n: f"{100 + n} Oak Avenue")
    city = factory.LazyAttribute(lambda o: o.jurisdiction.short_name)
    postal_code = "55056"


class AnimalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Animal
        skip_postgeneration_save = True

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    owner = factory.SubFactory(OwnerFactory, jurisdiction=factory.SelfAttribute("..jurisdiction"))
    premises = factory.SubFactory(
        PremisesFactory,
        jurisdiction=factory.SelfAttribute("..jurisdiction"),
        address_line=factory.SelfAttribute("..owner.address_line"),
    )
    species = Species.DOG
    name = factory.Iterator(["Biscuit", "Maple", "Rufus", "Juniper", "Otis", "Pepper"])
    breed = "Labrador Retriever"
    color = "Yellow"
    sex = "female"
    date_of_birth = date(2022, 5, 1)
    acquired_on = date(2022, 7, 15)

    @factory.post_generation
    def ownership(obj, create, extracted, **kwargs):
        if create:
            Ownership.objects.create(
                animal=obj,
                owner=obj.owner,
                premises=obj.premises,
                started_on=obj.acquired_on or date(2020, 1, 1),
            )


class RabiesVaccinationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = RabiesVaccination

    animal = factory.SubFactory(AnimalFactory)
    vaccinated_on = date(2025, 6, 1)
    duration_years = 3
    next_due_on = date(2028, 6, 1)
    manufacturer = "Zoetis"
    product = "Defensor 3"
    lot_number = factory.Sequence(lambda n: f"LOT{n:05d}")
    rabies_tag_number = factory.Sequence(lambda n: f"R{n:06d}")
    veterinarian_name = "Dr. Ann Holm"
    veterinarian_license = "MN-VET-10442"
    clinic_name = "North Branch Animal Hospital"
