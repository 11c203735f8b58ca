"""E-mail messages (message/rfc822): the HTML (else plain text) body is prepared like any page of that format,
with the strategy and noise filter; the subject titles a body that has no title of its own."""

from __future__ import annotations

import email
import email.policy

from gigflow.documents.types import PreparedDocument


class MessageFormat:
    def __init__(self, formats: dict):
        self.formats = formats  # the preparer's own format parsers: a message's body takes the same path

    def parse(self, body: bytes | str, url: str, *, content_type: str | None = None, strategy=None,
              noise_filter=None) -> PreparedDocument:
        raw = body.encode("utf-8") if isinstance(body, str) else body
        return prepare_message(email.message_from_bytes(raw, policy=email.policy.default), url, self.formats,
                               strategy=strategy, noise_filter=noise_filter)


def prepare_message(message, url: str, formats: dict, *, strategy=None, noise_filter=None) -> PreparedDocument:
    part = message.get_body(preferencelist=("html", "plain"))
    if part is None:
        document = PreparedDocument(markdown="", format="text")
        document.report.errors.append("the message has no HTML or plain-text body")
        return document
    fmt = "html" if part.get_content_subtype() == "html" else "text"
    content_type = f"text/{'html' if fmt == 'html' else 'plain'}; charset=utf-8"
    prepared = formats[fmt].parse(part.get_content().encode("utf-8"), url, content_type=content_type,
                                  strategy=strategy, noise_filter=noise_filter)
    if prepared.title is None:
        prepared.title = " ".join(str(message.get("Subject", "")).split()) or None
    return prepared
