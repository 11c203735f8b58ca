"""HTML preparation: assets out, links absolute, then Markdown."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html
from w3lib.encoding import html_to_unicode

from gigflow.documents.markdown import html_to_markdown
from gigflow.documents.types import PreparationReport, PreparedDocument

ASSET_TAGS = ("script", "style", "noscript", "template", "iframe", "svg", "canvas", "link", "meta", "object", "embed")
URL_ATTRIBUTES = ("href", "src", "action", "poster", "data-src")


def decode_html(body: bytes, content_type: str | None = None) -> str:
    """Decode as Scrapy does: HTTP header, BOM, meta charset, then detection."""
    _, text = html_to_unicode(content_type, body)
    return text.replace("\x00", "")


def parse_html(text: str):
    parser = lxml_html.HTMLParser(remove_comments=True, huge_tree=True, recover=True)
    root = lxml_html.document_fromstring(text or "<html></html>", parser=parser)
    return root


def usable_base(root, page_url: str) -> str:
    """The URL relative links resolve against: the first http(s) <base href>, itself resolved on the page URL."""
    for base in root.iter("base"):
        href = (base.get("href") or "").strip()
        if not href:
            continue
        resolved = urljoin(page_url, href)
        if urlsplit(resolved).scheme in ("http", "https"):
            return resolved
    return page_url


def resolve_links(root, base_url: str, page_url: str) -> int:
    """Make every link and media URL absolute. In-page fragments keep pointing at the current page."""
    count = 0
    for el in root.iter(etree.Element):
        for attr in URL_ATTRIBUTES:
            value = el.get(attr)
            if value is None:
                continue
            value = value.strip()
            if value.startswith("#"):
                resolved = page_url.split("#", 1)[0] + value
            elif value.lower().startswith(("javascript:", "data:")):
                continue
            else:
                resolved = urljoin(base_url, value)
            if resolved != value:
                el.set(attr, resolved)
                count += 1
    return count


def remove_assets(root, report: PreparationReport) -> None:
    for el in list(root.iter(*ASSET_TAGS)):
        parent = el.getparent()
        if parent is None:
            continue
        report.assets_removed += 1
        el.drop_tree()
    for el in root.iter(etree.Element):
        for attr in [a for a in el.attrib if a.lower().startswith("on")]:
            del el.attrib[attr]


def page_title(root) -> str | None:
    h1 = root.find(".//h1")
    if h1 is not None and h1.text_content().strip():
        return " ".join(h1.text_content().split())
    title = root.find(".//title")
    if title is not None and (title.text or "").strip():
        return " ".join(title.text.split())
    return None


def prepare_html(body: bytes | str, url: str, *, content_type: str | None = None, strategy=None,
                 noise_filter=None) -> PreparedDocument:
    """Prepare one HTML page: assets out, links absolute, the site's noise filter applied, then Markdown."""
    from gigflow.noise.apply import apply_noise_filter

    report = PreparationReport()
    text = body if isinstance(body, str) else decode_html(body, content_type)
    root = parse_html(text)
    base_url = usable_base(root, url)
    report.base_url = base_url if base_url != url else None
    report.links_resolved = resolve_links(root, base_url, url)
    title = page_title(root)
    remove_assets(root, report)
    for base in list(root.iter("base")):
        base.drop_tree()
    apply_noise_filter(root, noise_filter, report)
    links = sorted({a.get("href") for a in root.iter("a") if (a.get("href") or "").startswith(("http://", "https://"))})
    body_el = root.find("body")
    markdown = html_to_markdown(body_el if body_el is not None else root)
    return PreparedDocument(markdown=markdown, title=title, links=links, format="html", report=report)
