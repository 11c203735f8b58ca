"""Read a YAML or JSON file of sources and validate every entry before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from pydantic import ValidationError

from gigflow.sources.config import SourceConfig


class SourceFileError(ValueError):
    """A source file that cannot be imported; the message names each bad source and field."""


def _field_path(loc: tuple) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item in ("href", "sitemap", "click", "feed", "ats", "mailbox") and parts and parts[-1].endswith("]"):
            continue  # pydantic's discriminator tag: the strategy's type is already in the data
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts)


def parse_sources(data, origin: str = "<data>") -> list[SourceConfig]:
    entries = data.get("sources") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise SourceFileError(f"{origin}: expected a list of sources (or a mapping with a 'sources' list)")
    configs, problems, seen = [], [], set()
    for index, entry in enumerate(entries):
        name = entry.get("id") if isinstance(entry, dict) else None
        label = f"source {name!r}" if name else f"source #{index + 1}"
        try:
            config = SourceConfig.model_validate(entry)
        except ValidationError as exc:
            for err in exc.errors():
                msg = err["msg"].removeprefix("Value error, ")
                if err["type"] == "union_tag_invalid":
                    msg = f"unknown strategy {err['input'].get('type')!r}" if isinstance(err["input"], dict) else msg
                problems.append(f"{label}: {_field_path(err['loc']) or '(entry)'}: {msg}")
            continue
        if config.id in seen:
            problems.append(f"{label}: id: duplicate source id")
        seen.add(config.id)
        configs.append(config)
    if problems:
        raise SourceFileError(f"{origin}: nothing imported; fix these first:\n  " + "\n  ".join(problems))
    return configs


def load_source_file(path: str | Path) -> list[SourceConfig]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceFileError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise SourceFileError(f"{path}: not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from None
    return parse_sources(data, str(path))
