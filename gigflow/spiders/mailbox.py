"""mailbox strategy: job-alert e-mails from a Maildir or a folder of ``.eml`` files, through the e-mail adapter.

Messages are read from disk in ``start()``, never fetched: a local file is no fetch target. Each message is stored
once: as the version ``mid:<Message-ID>`` (RFC 2392), or ``urn:sha256:<hash>`` when it has none; a message
whose Message-ID or bytes are already stored for the source is skipped. Alerts are not listings, so a job missing
from later mail is not marked gone.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import mailbox
from pathlib import Path
from urllib.parse import quote

from gigflow.db import get_pool
from gigflow.documents import PreparedDocument, prepare_html
from gigflow.spiders.base import SourceSpider
from gigflow.sql import load_sql

MESSAGE_TYPE = "message/rfc822"


def message_files(folder: Path):
    """(name, raw bytes) of each message: a Maildir's new/ and cur/ messages, else every *.eml below ``folder``."""
    if (folder / "cur").is_dir() or (folder / "new").is_dir():
        box = mailbox.Maildir(folder, factory=None, create=False)
        for key in sorted(box.keys()):
            yield key, box.get_bytes(key)
    else:
        for path in sorted(folder.rglob("*.eml")):
            yield str(path.relative_to(folder)), path.read_bytes()


def message_url(message, sha256: str) -> str:
    message_id = " ".join(str(message.get("Message-ID", "")).split()).strip("<>")
    return f"mid:{quote(message_id, safe='@')}" if message_id else f"urn:sha256:{sha256}"


def prepare_message(message, url: str) -> PreparedDocument | None:
    """The message's HTML body prepared like a page, else its text body as it is."""
    subject = " ".join(str(message.get("Subject", "")).split()) or None
    body = message.get_body(preferencelist=("html", "plain"))
    if body is None:
        return None
    content = body.get_content()
    if body.get_content_subtype() == "html":
        return prepare_html(content.encode("utf-8"), url, content_type="text/html; charset=utf-8")
    return PreparedDocument(markdown=content.strip(), title=subject, format="text")


class MailboxSpider(SourceSpider):
    name = "mailbox"
    strategy_type = "mailbox"
    marks_gone = False

    async def start(self):
        stats = self.crawler.stats
        folder = Path(self.strategy.path).expanduser()
        if not folder.is_dir():
            self.mark_incomplete(f"mailbox folder {str(folder)!r} does not exist")
            return
        limit = self.crawler.settings.getint("MAILBOX_MAX_MESSAGES")
        max_bytes = self.crawler.settings.getint("DOWNLOAD_MAXSIZE")
        stored_urls, stored_hashes = self.stored_messages()
        read = 0
        for name, raw in message_files(folder):
            stats.inc_value("gigflow/messages_seen")
            sha256 = hashlib.sha256(raw).hexdigest()
            if len(raw) > max_bytes:
                self.logger.warning("message %s is larger than DOWNLOAD_MAXSIZE; skipped", name)
                stats.inc_value("gigflow/messages_too_large")
                continue
            message = email.message_from_bytes(raw, policy=email.policy.default)
            url = message_url(message, sha256)
            if url in stored_urls or sha256 in stored_hashes:
                stats.inc_value("gigflow/messages_already_stored")
                continue
            if read >= limit:
                self.mark_incomplete(f"more new messages than MAILBOX_MAX_MESSAGES={limit}")
                return
            read += 1
            stored_urls.add(url)
            stored_hashes.add(sha256)
            yield self.message_item(name, raw, message, url)

    def stored_messages(self) -> tuple[set[str], set[str]]:
        with get_pool().connection() as conn:
            rows = conn.execute(load_sql("gigflow.spiders", "stored_messages.sql"),
                                {"source_id": self.source_id, "content_type": MESSAGE_TYPE}).fetchall()
        return {row["url"] for row in rows}, {row["sha256"] for row in rows}

    def message_item(self, name: str, raw: bytes, message, url: str):
        try:
            prepared = prepare_message(message, url)
        except Exception as exc:  # an odd message loses its Markdown, never the crawl or its bytes
            self.logger.warning("message %s could not be prepared: %s", name, exc)
            prepared = None
        result = self.extract(raw, url=url, content_type=MESSAGE_TYPE)
        self.crawler.stats.inc_value("gigflow/messages_read")
        return self.page_item(url, raw, result, prepared=prepared, content_type=MESSAGE_TYPE)
