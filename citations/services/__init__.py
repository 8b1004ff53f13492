"""Citation services: ``violations`` (codes and the class proposed), ``issuance``
(``issue_citation``, the document), ``status`` (what staff record afterwards)."""
