"""Reviewed regional routes: tables in this folder (`*.yaml`), validated by pydantic on first use."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml
from pydantic import ValidationError

from gigflow.adapters.routes.adapter import RouteAdapter
from gigflow.adapters.routes.model import Route, RouteTable


class RouteTableError(ValueError):
    """A route table file is invalid; the message names the file and the field."""


def load_table(name: str, text: str) -> RouteTable:
    try:
        return RouteTable.model_validate(yaml.safe_load(text) or {})
    except (yaml.YAMLError, ValidationError) as exc:
        raise RouteTableError(f"route table {name}: {exc}") from None


@lru_cache(maxsize=1)
def routes() -> dict[str, Route]:
    """Every reviewed route by name, scannable or on the watch list; duplicate names are an error."""
    found: dict[str, Route] = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith((".yaml", ".yml")):
            continue
        for route in load_table(entry.name, entry.read_text(encoding="utf-8")).routes:
            if route.name in found:
                raise RouteTableError(f"route table {entry.name}: route {route.name!r} defined twice")
            found[route.name] = route
    return found


def route_adapter(name: str) -> RouteAdapter:
    try:
        return RouteAdapter(routes()[name])
    except KeyError:
        raise KeyError(f"unknown route {name!r}; known: {', '.join(sorted(routes()))}") from None


def watch_list() -> list[Route]:
    return [route for route in routes().values() if not route.scannable]


__all__ = ["Route", "RouteAdapter", "RouteTable", "RouteTableError", "load_table", "route_adapter", "routes",
           "watch_list"]
