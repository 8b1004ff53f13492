"""What the API shows of each record. Each resource has a base serializer (ids and
non-personal fields) and a ``Personal`` one adding names, addresses, phones and e-mails,
chosen per call by the integration's ``personal-data`` scope (views.py)."""

from rest_framework import serializers

from licensing.models import Animal, License, Owner, Receipt, ReceiptLine

PERSONAL = "Only with the personal-data scope."


class CitySlugField(serializers.SlugRelatedField):
    def __init__(self, **kwargs):
        super().__init__(slug_field="slug", read_only=True, source="jurisdiction", **kwargs)


class LicenseSerializer(serializers.ModelSerializer):
    city = CitySlugField()
    tag_number = serializers.SerializerMethodField()
    tag_year = serializers.SerializerMethodField()

    class Meta:
        model = License
        fields = [
            "id",
            "city",
            "number",
            "kind",
            "status",
            "animal",
            "owner",
            "term_start",
            "expires_on",
            "issued_on",
            "receipt",
            "late_penalty",
            "status_changed_on",
            "renewal_of",
            "tag_number",
            "tag_year",
            "created_at",
        ]

    def get_tag_number(self, obj) -> int | None:
        tag = obj.current_tag
        return tag.number if tag else None

    def get_tag_year(self, obj) -> int | None:
        tag = obj.current_tag
        return tag.year if tag else None


class AnimalSerializer(serializers.ModelSerializer):
    city = CitySlugField()

    class Meta:
        model = Animal
        fields = [
            "id",
            "city",
            "species",
            "kind",
            "name",
            "breed",
            "color",
            "sex",
            "sterilized",
            "date_of_birth",
            "dob_is_estimate",
            "microchip",
            "status",
            "status_changed_on",
            "is_service_animal",
            "is_law_enforcement",
            "owner",
            "premises",
            "created_at",
        ]


class AnimalPersonalSerializer(AnimalSerializer):
    premises_address = serializers.SerializerMethodField(help_text=PERSONAL)
    parcel_id = serializers.SerializerMethodField(help_text=PERSONAL)

    class Meta(AnimalSerializer.Meta):
        fields = [*AnimalSerializer.Meta.fields, "premises_address", "parcel_id"]

    def get_premises_address(self, obj) -> str | None:
        return obj.premises.address if obj.premises else None

    def get_parcel_id(self, obj) -> str | None:
        return obj.premises.parcel_id if obj.premises else None


class OwnerSerializer(serializers.ModelSerializer):
    city = CitySlugField()

    class Meta:
        model = Owner
        fields = ["id", "city", "kind", "is_resident", "merged_into", "created_at"]


OWNER_PERSONAL_FIELDS = [
    "first_name",
    "last_name",
    "organization_name",
    "address_line",
    "unit",
    "city_name",
    "state",
    "postal_code",
    "phone",
    "email",
]


class OwnerPersonalSerializer(OwnerSerializer):
    city_name = serializers.CharField(source="city", read_only=True, help_text=PERSONAL)

    class Meta(OwnerSerializer.Meta):
        fields = [*OwnerSerializer.Meta.fields, *OWNER_PERSONAL_FIELDS]


class ReceiptLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReceiptLine
        fields = ["code", "description", "amount", "authority"]


class ReceiptSerializer(serializers.ModelSerializer):
    city = CitySlugField()
    lines = ReceiptLineSerializer(many=True, read_only=True)
    licenses = serializers.PrimaryKeyRelatedField(source="regarding", many=True, read_only=True)

    class Meta:
        model = Receipt
        fields = [
            "id",
            "city",
            "number",
            "issued_at",
            "method",
            "reference",
            "total",
            "voids",
            "void_reason",
            "payer",
            "lines",
            "licenses",
        ]


class ReceiptPersonalSerializer(ReceiptSerializer):
    class Meta(ReceiptSerializer.Meta):
        fields = [*ReceiptSerializer.Meta.fields, "payer_name", "payer_address"]
