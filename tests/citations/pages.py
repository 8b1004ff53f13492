"""The citation rows of tests/test_every_page.py's page table.

The world holds a North Branch citation on the world's dog, issued by the
administrator; its status page is POST-only.
"""

from dataclasses import dataclass


@dataclass
class CitationsWorld:
    citation: object  # North Branch, at large, issued


def build_citations_world(*, nb, nb_animal, actor, now) -> CitationsWorld:
    from datetime import timedelta

    from citations.services.issuance import Charge, Defendant, issue_citation

    charge = Charge(
        violation="at_large",
        violated_at=now,
        location="Main Street",
        court="Chisago County District Court",
        appearance_on=now.date() + timedelta(weeks=3),
        charge_class="petty_misdemeanor",
    )
    citation = issue_citation(
        jurisdiction=nb, actor=actor, charge=charge, defendant=Defendant(animal=nb_animal), now=now
    )
    return CitationsWorld(citation=citation)


CITATION_PAGES = {
    "citations:list": (lambda w: [], {}),
    "citations:issue": (lambda w: [], {}),
    "citations:detail": (lambda w: [w.citations.citation.pk], {}),
    "citations:status": (lambda w: [w.citations.citation.pk], {"*": 405}),
}
