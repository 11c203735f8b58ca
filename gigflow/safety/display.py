"""Text that a person will see: in a spreadsheet, a terminal or the review app.

- ``formula_safe``: a cell a spreadsheet would run as a formula (first character ``= + - @``, a tab or a carriage
  return, OWASP's list) gets a leading apostrophe, which spreadsheets show as text.
- ``display_safe``: control characters that change how text *looks* rather than what it says are made visible:
  terminal escapes (ESC and every other C0/C1 control but tab and newline) and the bidi embeddings, overrides and
  isolates (U+202A-U+202E, U+2066-U+2069) that can make ``exe.txt`` read ``txt.exe``. Each becomes U+FFFD.
  (The left-to-right and right-to-left marks stay: they are how right-to-left text is written, and override
  nothing.)
- ``json_display_safe``: the same characters escaped in JSON text (``\\u202e``): the data is unchanged for any
  JSON reader, but a terminal showing the file is not steered by it."""

from __future__ import annotations

import re

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_DISPLAY_CONTROLS = "".join(
    [chr(c) for c in range(0x00, 0x20) if c not in (0x09, 0x0A)] + [chr(0x7F)] + [chr(c) for c in range(0x80, 0xA0)]
    + [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)])
_DISPLAY_TABLE = str.maketrans(dict.fromkeys(_DISPLAY_CONTROLS, "\ufffd"))
_DISPLAY_RE = re.compile(f"[{re.escape(_DISPLAY_CONTROLS)}]")
_JSON_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u0080-\u009f]")


def display_safe(text: str) -> str:
    return text.translate(_DISPLAY_TABLE) if _DISPLAY_RE.search(text) else text


def formula_safe(value):
    """``value`` with a leading apostrophe when a spreadsheet would read it as a formula (strings only)."""
    return "'" + value if isinstance(value, str) and value[:1] in FORMULA_PREFIXES else value


def spreadsheet_cell(value):
    """A CSV cell: display-safe, then formula-safe (strings only)."""
    return formula_safe(display_safe(value)) if isinstance(value, str) else value


def json_display_safe(json_text: str) -> str:
    """JSON text (json.dumps output, ensure_ascii=False) with bidi controls and C1 controls escaped as \\uXXXX."""
    if not _JSON_BIDI.search(json_text):
        return json_text
    return _JSON_BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)
