"""How job-fact snippets and the text they are looked for in are compared (learning and apply alike)."""

from __future__ import annotations

import re

_MARKS = re.compile(r"[*_`#|>\\\[\]()]+")
_WS = re.compile(r"\s+")


def normalise_snippet(text: str) -> str:
    """Text as fact snippets and the Markdown they are looked for in are compared: no Markdown marks, one space."""
    return _WS.sub(" ", _MARKS.sub(" ", text)).strip().lower()
