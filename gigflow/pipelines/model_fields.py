"""Optional model extraction: fields the adapters left empty, proposed by a model with an exact quote each.

Off unless `EXTRACT_MODEL` (or `GIGFLOW_EXTRACT_MODEL`) names a model; the endpoint is any OpenAI-compatible
server (`OPENAI_BASE_URL`, `OPENAI_API_KEY`). The call happens here, outside the adapters (which never touch the
network), on a worker thread so the crawl is not blocked; `gigflow.adapters.quotes` decides, purely, which
proposals the page supports. A failed call costs a warning on the item, never the item.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone

from twisted.internet.threads import deferToThread

from gigflow.adapters.quotes import MODEL_FIELDS, ModelProposals, accept_proposals

PROMPT = ("You read one job vacancy page (Markdown) and return its fields as JSON. For each field give the value "
          "and the exact words of the page you read it from (copy them character for character, at most 300 "
          "characters). Use null for a field the page does not state. Never guess.")


def response_format() -> dict:
    return {"type": "json_schema",
            "json_schema": {"name": "job_fields", "strict": True, "schema": ModelProposals.model_json_schema()}}


class ModelFieldsPipeline:
    def __init__(self, model: str, *, base_url: str | None, api_key: str | None, timeout: float, max_chars: int):
        self.model, self.base_url, self.api_key = model, base_url, api_key
        self.timeout, self.max_chars = timeout, max_chars
        self._client = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        return cls(settings.get("EXTRACT_MODEL") or os.environ.get("GIGFLOW_EXTRACT_MODEL", ""),
                   base_url=os.environ.get("OPENAI_BASE_URL"), api_key=os.environ.get("OPENAI_API_KEY"),
                   timeout=settings.getfloat("EXTRACT_MODEL_TIMEOUT", 60.0),
                   max_chars=settings.getint("EXTRACT_MODEL_MAX_CHARS", 20000))

    def process_item(self, item, spider=None):
        jobs = item.get("jobs") or []
        page = item.get("markdown") or ""
        if not self.model or len(jobs) != 1 or not page or all(jobs[0].get(f) for f in MODEL_FIELDS):
            return item
        return deferToThread(self.fill, item)

    def fill(self, item):
        """Ask the model, keep what the page supports; the item comes back either way."""
        page = item["markdown"]
        try:
            proposals = self.propose(page[:self.max_chars])
        except Exception as exc:  # noqa: BLE001 - any transport or schema failure only costs the proposal
            item["warnings"] = list(item.get("warnings") or []) + [f"model: no proposal ({exc.__class__.__name__}: "
                                                                   f"{str(exc)[:200]})"]
            return item
        job, warnings = accept_proposals(item["jobs"][0], proposals, page, fetched_at=datetime.now(timezone.utc))
        item["jobs"] = [job]
        item["warnings"] = list(item.get("warnings") or []) + warnings
        return item

    def propose(self, page: str) -> ModelProposals:
        if self._client is None:
            from openai import OpenAI

            self._client = OpenAI(base_url=self.base_url or None, api_key=self.api_key or "unused",
                                  timeout=self.timeout, max_retries=0)
        response = self._client.chat.completions.create(
            model=self.model, temperature=0, timeout=self.timeout, response_format=response_format(),
            messages=[{"role": "system", "content": PROMPT},
                      {"role": "user", "content": json.dumps({"page": page, "fields": list(MODEL_FIELDS)})}])
        return ModelProposals.model_validate_json(response.choices[0].message.content or "")
