"""Markdown we did not write (a ``text/markdown`` page), made safe through a real parser.

The page is parsed by markdown-it-py (CommonMark, the way a renderer reads it, every link target accepted) and the
token stream is rewritten before mdformat re-emits it as Markdown:

- every link, image and the reference definition behind it is resolved against the page, then checked by the
  stored-URL policy (``safe_target``): a refused link keeps its text and points at ``#``, a refused image becomes
  its alt text; a reference link whose definition is refused is written inline, so the definition is never emitted;
- raw HTML, inline or as a block, becomes text (a block becomes a code block): nothing renders as markup;
- the result is parsed again and, should any unsafe link or HTML survive the round trip, the page is stored as
  escaped plain text instead.

Whatever the source hides a target in (the next line, a ``> `` quote, a list item, a label with ``\\]`` or a line
break, a lazy continuation, entities), the parser finds it where a renderer would, so no pattern can miss it."""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token

from gigflow.documents.links import resolve_url
from gigflow.documents.safe_text import IMAGE_SCHEMES, LINK_SCHEMES, escape_text, safe_target

REFUSED = "#"


@dataclass
class CleanMarkdown:
    markdown: str
    title: str | None = None
    links: list[str] = field(default_factory=list)
    resolved: int = 0  # relative targets made absolute
    refused: int = 0  # link and image targets dropped


_ENV_KEY = "gigflow_page"  # env entry the rewrite rule reads: (page URL, CleanMarkdown to fill)


def _parser():
    from mdformat._util import build_mdit
    from mdformat.renderer import MDRenderer

    mdit = build_mdit(MDRenderer)
    mdit.validateLink = lambda url: True  # see every target a permissive renderer would link; we judge them
    mdit.core.ruler.push("gigflow_sanitize", _sanitize_rule)
    return mdit


_PARSER = None


def _mdit():
    global _PARSER
    if _PARSER is None:
        _PARSER = _parser()
    return _PARSER


def _target(value: str, url: str, schemes: tuple[str, ...], result: CleanMarkdown) -> str | None:
    # (resolve_url leaves opaque targets such as mailto: as written: None)
    resolved = (resolve_url(value, url, url) or value) if value and not value.startswith("#") else value
    if resolved and resolved != value:
        result.resolved += 1
    checked = safe_target(resolved, schemes) if resolved else None
    if checked is None:
        result.refused += 1
    return checked


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _rewrite_inline(children: list[Token], url: str, result: CleanMarkdown) -> list[Token]:
    out: list[Token] = []
    for token in children:
        if token.type == "link_open":
            href = _target(str(token.attrGet("href") or ""), url, LINK_SCHEMES, result)
            if token.info == "auto" and href is None:
                # an autolink shows its target as text: keep the text, drop the link
                token.info = ""
            token.attrSet("href", href or REFUSED)
            if href is None or href != token.attrGet("href"):
                token.meta.pop("label", None)  # write it inline: the refused definition is never emitted
            if href and href.startswith(("http://", "https://")):
                result.links.append(href)
        elif token.type == "image":
            src = _target(str(token.attrGet("src") or ""), url, IMAGE_SCHEMES, result)
            if src is None:
                out.append(_text(token.content or ""))
                continue
            token.attrSet("src", src)
            token.meta.pop("label", None)
            if token.children:
                token.children = _rewrite_inline(token.children, url, result)
        elif token.type == "html_inline":
            out.append(_text(token.content))
            continue
        out.append(token)
    return out


def _sanitize_rule(state) -> None:
    """A markdown-it core rule: the page's URL and the result to fill come in the call's env (thread-safe)."""
    url, result = state.env[_ENV_KEY]
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "html_block":
            block = Token("code_block", "code", 0)
            block.content, block.map, block.block = token.content, token.map, True
            tokens[index] = block
        elif token.type == "inline" and token.children:
            token.children = _rewrite_inline(token.children, url, result)
        if result.title is None and token.type == "heading_open" and index + 1 < len(tokens):
            result.title = " ".join(tokens[index + 1].content.split()) or None
    # Definitions nobody links to are never written by mdformat; the used ones were checked with their links.


def clean_markdown_page(text: str, url: str) -> CleanMarkdown:
    """The page's Markdown with every target checked and raw HTML made text (see the module docstring)."""
    result = CleanMarkdown(markdown="")
    try:
        markdown = _mdit().render(text, {_ENV_KEY: (url, result)})
    except Exception:  # the parser or the formatter failed on this page: escaped text is always safe
        return CleanMarkdown(markdown=escape_text(text))
    if unsafe_markup(markdown):
        return CleanMarkdown(markdown=escape_text(text), title=result.title)
    result.markdown = markdown
    result.links = list(dict.fromkeys(result.links))
    return result


def unsafe_markup(markdown: str) -> bool:
    """Does re-parsed Markdown hold raw HTML or a link/image target outside the policy?"""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True
    for token in md.parse(markdown):
        if token.type == "html_block":
            return True
        for child in token.children or ():
            if child.type == "html_inline":
                return True
            if child.type == "link_open":
                href = str(child.attrGet("href") or "")
                if href != REFUSED and safe_target(href) != href:
                    return True
            if child.type == "image":
                src = str(child.attrGet("src") or "")
                if safe_target(src, IMAGE_SCHEMES) != src:
                    return True
    return False
