"""Embedded application forms: an iframe whose page is a form builder's form or an application page.

Preparation drops iframes with the other assets; an embedded application form is the job's way to apply, so its
address stays as a link ("[Application form](https://…)") and the generic adapter reads it as the apply URL.
Videos, maps, newsletters and tag managers are no application and go as before.
"""

from __future__ import annotations

import re

# Form builders whose embeds are forms (a posting embeds its application form), and an address that says it is an
# application: "apply" in the host (an ATS's apply host) or an apply/application/job_app path segment.
FORM_EMBED = re.compile(
    r"^(?:https?:)?//(?:[\w-]+\.)*(?:airtable\.com|typeform\.com|jotform\.com|tally\.so|cognitoforms\.com|"
    r"formstack\.com|wufoo\.com|paperform\.co|fillout\.com|hsforms\.com|123formbuilder\.com|formsite\.com)/|"
    r"^(?:https?:)?//(?:docs\.google\.com/forms/|forms\.gle/|forms\.office\.com/|forms\.microsoft\.com/)|"
    r"^(?:https?:)?//[^/?#\s]*apply|"
    r"^(?:https?://|/|(?![\w+.-]*:))[^?#\s]*/(?:apply|application|job_app)(?:[/?#_.-]|$)", re.I)
DEFAULT_NAME = "Application form"


def is_form_embed(src: str | None) -> bool:
    return bool(src) and bool(FORM_EMBED.match(src.strip()[:2000]))


def form_embed_name(frame) -> str:
    """The link text for an embedded form: the frame's title when it says something, else "Application form"."""
    title = " ".join((frame.get("title") or "").split())
    return title if 2 < len(title) <= 80 and any(ch.isalpha() for ch in title) else DEFAULT_NAME
