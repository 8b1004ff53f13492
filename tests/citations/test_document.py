"""The citation document (REC-14, C10): a real WeasyPrint PDF read back, archived as
issued and re-printed byte for byte."""

import pytest

from citations.services.issuance import citation_document
from notices.services import document_pdf, document_render
from tests.impound.helpers import owned_dog
from tests.pdf import pdf_text

from .helpers import COURT, cite

pytestmark = pytest.mark.django_db


def test_the_pdf_carries_number_class_section_court_and_appearance(north_branch, officer):
    dog = owned_dog(north_branch, name="Rufus")
    cite(north_branch, officer, owned_dog(north_branch))  # number 1
    citation = cite(north_branch, officer, dog, "at_large")
    document = citation_document(citation)
    text = pdf_text(document_pdf(document))
    assert citation.number == 2 and "Citation number 2" in text
    assert "Petty misdemeanor" in text and "North Branch Sec. 6-27" in text
    assert "North Branch Sec. 6-66; Sec. 6-69" in text
    assert COURT in text and "Sunday, June 28, 2026" in text
    assert dog.owner.name in text and "Rufus" in text
    assert "North Branch Sec. 6-69" in text  # the authority to cite (REC-14)


def test_glencoe_sterilization_prints_the_cap_and_leaves_the_fine_to_the_court(glencoe, officer):
    citation = cite(glencoe, officer, owned_dog(glencoe), "sterilization")
    text = pdf_text(document_pdf(citation_document(citation)))
    assert "Petty misdemeanor" in text and "Glencoe 701 Subd. 26" in text
    assert "not to exceed $300.00" in text
    other = cite(glencoe, officer, owned_dog(glencoe), "at_large")
    other_text = pdf_text(document_pdf(citation_document(other)))
    assert "Misdemeanor" in other_text and "Glencoe 701 Subd. 18" in other_text
    assert "$" not in other_text


def test_a_reprint_is_the_archived_bytes_and_a_rerender_matches_them(north_branch, officer):
    citation = cite(north_branch, officer, owned_dog(north_branch))
    document = citation_document(citation)
    first, again = document_pdf(document), document_pdf(document)
    assert first == again and len(first) == document.size
    rerendered = document_render(template=document.template, snapshot=document.snapshot)
    assert pdf_text(rerendered) == pdf_text(first)
