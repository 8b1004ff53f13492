"""A CSV cell as our downloads write it: blank for nothing, ISO 8601 for a date or time,
and no spreadsheet formula from text someone typed (a leading = + - @ gets a quote;
a number, even a negative one, stays a number)."""


def safe_cell(value) -> str:
    text = "" if value is None else value.isoformat() if hasattr(value, "isoformat") else str(value)
    if text[:1] in ("=", "+", "-", "@"):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text
