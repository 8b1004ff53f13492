"""How dates read for people, one way everywhere (pages, e-mails, PDFs): "Dec 31, 2026"
and "Dec 31, 2026, 2:05 p.m.". Django 5 always localizes, so the locale's formats here
win over settings.DATE_FORMAT. CSV exports and date inputs stay ISO (YYYY-MM-DD).
"""

DATE_FORMAT = "M j, Y"
DATETIME_FORMAT = "M j, Y, g:i a"
SHORT_DATE_FORMAT = "M j, Y"
SHORT_DATETIME_FORMAT = "M j, Y, g:i a"
