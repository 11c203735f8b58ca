"""Parser order lives here and nowhere else."""

from __future__ import annotations

from gigflow.adapters.jsonld import JsonLdAdapter
from gigflow.adapters.types import ExtractionResult, SourceAdapter

JSONLD = JsonLdAdapter()
SPECIALISED: dict[str, SourceAdapter] = {}
FALLBACKS: list[SourceAdapter] = []


def register(adapter: SourceAdapter, *, fallback: bool = False) -> SourceAdapter:
    """Explicit registration: specialised adapters by parser key, fallbacks in order."""
    if fallback:
        FALLBACKS.append(adapter)
    else:
        SPECIALISED[adapter.parser_key] = adapter
    return adapter


def extract_html(content: bytes | str, *, url: str, parser_key: str | None = None) -> ExtractionResult:
    """JSON-LD JobPosting, then the source's specialised adapter, then the generic fallbacks."""
    warnings: list[str] = []
    chain: list[SourceAdapter] = [JSONLD]
    if parser_key and parser_key in SPECIALISED:
        chain.append(SPECIALISED[parser_key])
    elif parser_key and parser_key != JSONLD.parser_key:
        warnings.append(f"unknown parser key {parser_key!r}; using the generic chain")
    chain.extend(FALLBACKS)
    for adapter in chain:
        if adapter is not JSONLD and adapter is not SPECIALISED.get(parser_key or "") and not adapter.supports(url, content):
            continue
        result = adapter.extract(content, url=url)
        warnings.extend(result.warnings)
        if result.jobs:
            return result.model_copy(update={"warnings": warnings})
    return ExtractionResult.empty(warning=None).model_copy(update={"warnings": warnings + ["no job found"]})
