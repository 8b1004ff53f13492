"""Every table holding a city's data is exported, or excluded with its reason."""

from django.apps import apps

from records import registry


def test_every_model_of_our_apps_is_exported_or_excluded_with_a_reason():
    """A new model must be added to registry.SCOPES (with its path to the city) or to
    registry.EXCLUDED (with why it holds no city data)."""
    labels = {registry.model_label(m) for m in registry.city_models()}
    missing = labels - set(registry.SCOPES) - set(registry.EXCLUDED)
    assert not missing, f"add to records.registry.SCOPES or EXCLUDED: {sorted(missing)}"
    assert not set(registry.SCOPES) & set(registry.EXCLUDED)
    assert all(reason.strip() for reason in registry.EXCLUDED.values())
    # Nothing listed that no longer exists.
    assert not (set(registry.SCOPES) | set(registry.EXCLUDED)) - labels


def test_the_issue_s_tables_are_all_there():
    names = {t.name for t in registry.tables()}
    for label in (
        "licensing.owner",
        "licensing.premises",
        "licensing.animal",
        "licensing.ownership",
        "licensing.rabiesvaccination",
        "licensing.license",
        "licensing.receipt",
        "licensing.receiptline",
        "licensing.tag",
        "licensing.kennellicense",
        "impound.impoundcase",
        "dangerous_dogs.designationcase",
        "rabies.bitereport",
        "complaints.complaint",
        "citations.citation",
        "permits.horsepermit",
        "clinics.certificatesubmission",
        "notices.issueddocument",
        "ordinance.rulevalue",
        "ordinance.feescheduleentry",
        "ordinance.event",
    ):
        assert label in names, label


def test_each_model_with_audit_history_brings_its_history_table():
    names = {t.name for t in registry.tables()}
    for table in registry.tables():
        if table.history_of is None and hasattr(table.model, "history"):
            history = table.model.history.model._meta.label_lower
            assert history in names, history
    assert "ordinance.historicalrulevalue" in names
    assert "ordinance.historicalfeescheduleentry" in names


def test_every_scope_is_a_valid_query_for_its_table():
    for table in registry.tables():
        str(table.queryset([1, 2], ["MN"]).query)  # raises FieldError on a bad path


def test_secrets_are_never_columns():
    user = next(t for t in registry.tables() if t.name == "accounts.user")
    columns = {f.attname for f in user.columns}
    assert "password" not in columns and "email" in columns
    assert apps.get_model("accounts.User")._meta.get_field("password")
