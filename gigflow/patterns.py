"""User-supplied regular expressions (job URL and exclusion patterns) run on RE2, a linear-time engine.

Python's ``re`` backtracks: ``(a+)+$`` against a long link never returns and ignores SIGTERM. RE2 matches in
time linear in the input and refuses what it cannot do in linear time (backreferences, lookaround), so such a
pattern is rejected when the source file is imported, not discovered mid-crawl.
"""

from __future__ import annotations

from functools import lru_cache

import re2


class PatternError(ValueError):
    """A pattern RE2 cannot compile; the message says why in RE2's words."""


def _options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # the error becomes our message; RE2 would also print it to stderr
    return options


@lru_cache(maxsize=1024)
def compile_pattern(pattern: str):
    """The compiled pattern, or PatternError naming RE2's reason (e.g. a backreference or a lookahead)."""
    if not isinstance(pattern, str):
        raise PatternError(f"not a string: {pattern!r}")
    try:
        return re2.compile(pattern, _options())
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(f"{reason} (patterns run on RE2: no backreferences or lookaround)") from None


def search_any(patterns, text: str) -> bool:
    """True when any pattern matches somewhere in text (linear time in len(text) per pattern)."""
    return any(compile_pattern(p).search(text) is not None for p in patterns)
