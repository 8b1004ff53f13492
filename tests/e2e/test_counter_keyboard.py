"""The counter's screens 2 (animal and checks) and 3 (fee, payment and tag) with the
keyboard only: Tab / Shift+Tab to move, typing into fields and selects, Space for a
checkbox, Enter to send. Every control reached shows a visible focus outline (WCAG 2.4.7)
and axe passes on both screens (WCAG 2.1 AA)."""

from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import Animal, License, RabiesVaccination, Receipt
from licensing.services.assessment import license_term
from tests.licensing.factories import OwnerFactory
from tests.licensing.license_factories import TagStockFactory

FOCUSED = """() => {
    const el = document.activeElement, s = getComputedStyle(el);
    return {tag: el.tagName, id: el.id, type: el.type || '',
            text: (el.textContent || '').trim().slice(0, 60),
            style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0,
            checked: !!el.checked, value: el.value || '',
            picker: el.type === 'date' && !el.matches(':focus')};
}"""


def focused(page):
    return page.evaluate(FOCUSED)


def move_to(page, matches, key="Tab", limit=80):
    """Press ``key`` (Tab or Shift+Tab) until ``matches(focused)``; every control reached
    on the way shows a visible outline."""
    for _ in range(limit):
        page.keyboard.press(key)
        now = focused(page)
        # Tab from a date input's year goes to its calendar button, inside the browser's
        # own shadow tree: Chromium draws its focus ring on that button itself (checked
        # by screenshot), and the page's styles cannot read it.
        if now["tag"] != "BODY" and not now["picker"]:
            assert now["style"] not in ("none", "") and now["width"] >= 2, now
        if matches(now):
            return now
    raise AssertionError(f"{key} never reached the control")


def field(field_id):
    return lambda f: f["id"] == field_id


def button(text):
    return lambda f: f["tag"] == "BUTTON" and text in f["text"]


def type_date(page, iso):
    """A date input takes the digits in the browser's (en-US) order: mm dd yyyy."""
    year, month, day = iso.split("-")
    page.keyboard.type(f"{month}{day}{year}")


def test_counter_screens_two_and_three_with_the_keyboard_only(
    page, login_as, assert_accessible, clerk, north_branch
):
    today = timezone.localdate()
    _start, expires_on, _renewal = license_term(jurisdiction=north_branch, on=today)
    TagStockFactory(
        jurisdiction=north_branch,
        recorded_by=clerk,
        year=expires_on.year,
        first_number=701,
        last_number=720,
    )
    owner = OwnerFactory(jurisdiction=north_branch, first_name="Dana", last_name="Berg")
    login_as(clerk)

    # Screen 2: a new animal.
    page.goto(reverse("licensing:counter_animal", args=[owner.pk]))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Dana Berg")
    assert_accessible()
    move_to(page, field("id_animal-species"))
    page.keyboard.type("Dog")
    assert focused(page)["value"] == "dog"
    move_to(page, field("id_animal-name"))
    page.keyboard.type("Scout")
    move_to(page, field("id_animal-breed"))
    page.keyboard.type("Beagle")
    move_to(page, field("id_animal-color"))
    page.keyboard.type("Tricolor")
    move_to(page, field("id_animal-sex"))
    page.keyboard.type("Male")
    assert focused(page)["value"] == "male"
    # Shift+Tab goes back to correct the name.
    move_to(page, field("id_animal-name"), key="Shift+Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("Scout II")
    move_to(page, field("id_animal-sterilized"))
    page.keyboard.press("Space")
    assert focused(page)["checked"]
    move_to(page, field("id_animal-date_of_birth"))
    type_date(page, "2022-04-01")
    move_to(page, button("Add animal"))
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name="Checks for Scout II")).to_be_visible()
    animal = Animal.objects.get(name="Scout II")
    assert animal.sterilized and animal.breed == "Beagle"
    assert str(animal.date_of_birth) == "2022-04-01"
    assert_accessible()

    # Screen 2: the rabies certificate, then on to the fee.
    move_to(page, field("id_vacc-vaccinated_on"))
    type_date(page, today.isoformat())
    move_to(page, field("id_vacc-veterinarian_name"))
    page.keyboard.type("Dr. Holm")
    move_to(page, field("id_vacc-veterinarian_license"))
    page.keyboard.type("MN-1")
    move_to(page, button("Record vaccination"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("link", name="Continue to fee and payment")).to_be_visible()
    assert RabiesVaccination.objects.filter(animal=animal, vaccinated_on=today).exists()
    assert_accessible()
    move_to(page, lambda f: f["tag"] == "A" and "Continue to fee and payment" in f["text"])
    page.keyboard.press("Enter")

    # Screen 3: fee, payment by check and the tag in hand.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Fee and payment for Scout II")
    expect(page.get_by_role("table")).to_contain_text("Total")
    assert_accessible()
    move_to(page, field("id_method"))
    page.keyboard.type("Check")
    assert focused(page)["value"] == "check"
    move_to(page, field("id_tag_number"))
    page.keyboard.type("705")
    # The check number was skipped: Shift+Tab back to it.
    move_to(page, field("id_reference"), key="Shift+Tab")
    page.keyboard.type("1234")
    move_to(page, button("Issue license"))
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", level=1)).to_contain_text("issued")
    assert_accessible()
    license = License.objects.get(animal=animal)
    receipt = Receipt.objects.get()
    assert receipt.method == "check" and receipt.reference == "1234"
    assert license.receipt_id == receipt.pk
    assert list(license.tags.values_list("number", flat=True)) == [705]
