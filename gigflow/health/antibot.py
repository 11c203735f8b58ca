"""Is this response a bot challenge or a CAPTCHA wall rather than content? Pure: status, headers, body.

gigflow never tries to solve or evade one: a run that meets one stops (see gigflow.health.middleware)."""

from __future__ import annotations

from lxml import etree, html

SCANNED_BYTES = 256 * 1024  # challenge pages are small; a marker deep in a large page is page content

# Markers of an interstitial challenge: the page exists only to test the client.
INTERSTITIAL = {
    "cloudflare": (b"/cdn-cgi/challenge-platform/", b"cf_chl_opt", b"cf-browser-verification", b"cf-chl-"),
    "datadome": (b"captcha-delivery.com", b"geo.captcha-delivery", b"dd={"),
    "perimeterx": (b"px-captcha", b"_pxcaptcha", b"human challenge"),
    "imperva": (b"_incapsula_resource", b"incapsula incident id"),
    "aws-waf": (b"awswafcookiedomainlist", b"aws-waf-token", b"challenge.js\" defer"),
    "akamai": (b"/_sec/cp_challenge/", b"sec-if-cpt-container"),
}
# CAPTCHA widgets: also used by real pages (an application form), so they count only on a challenge status or
# on a page with little else in it.
WIDGETS = {
    "recaptcha": (b"g-recaptcha", b"www.google.com/recaptcha/", b"recaptcha/api.js"),
    "hcaptcha": (b"h-captcha", b"hcaptcha.com/1/api.js", b"js.hcaptcha.com"),
    "turnstile": (b"cf-turnstile", b"challenges.cloudflare.com/turnstile"),
}
PHRASES = (b"verify you are human", b"verifying you are human", b"are you a robot", b"checking your browser",
           b"please complete the security check", b"unusual traffic from your", b"press &amp; hold",
           b"press & hold", b"enable javascript and cookies to continue")
CHALLENGE_STATUSES = (403, 429, 503)


def _text_length(head: bytes) -> int:
    """Visible characters (scripts and styles left out), by a parser: linear in the scanned bytes."""
    try:
        root = html.document_fromstring(head)
    except (etree.ParserError, ValueError):
        return 0
    etree.strip_elements(root, "script", "style", "noscript", with_tail=False)
    return len(" ".join(root.text_content().split()))


def challenge_kind(status: int, headers: dict[str, str], body: bytes, *, max_text_chars: int = 600) -> str | None:
    """The kind of challenge (``cloudflare``, ``recaptcha``, ...) or None for an ordinary response."""
    if (headers.get("cf-mitigated") or "").lower() == "challenge":
        return "cloudflare"
    head = body[:SCANNED_BYTES].lower()
    for kind, markers in INTERSTITIAL.items():
        if any(marker in head for marker in markers):
            return kind
    widget = next((kind for kind, markers in WIDGETS.items() if any(m in head for m in markers)), None)
    phrase = any(p in head for p in PHRASES)
    if status in CHALLENGE_STATUSES and (widget or phrase):
        return widget or "challenge"
    if (widget or phrase) and _text_length(head) <= max_text_chars:
        return widget or "challenge"
    return None
