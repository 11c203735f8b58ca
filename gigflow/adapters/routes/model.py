"""Route tables: reviewed, data-driven adapters for regional sources, validated before use.

A route names a fixed HTTPS host and an allowed list path; job links must stay on that host. Optional: a local
marker the page must carry (fail closed when absent), a fixed employer id, a reviewed location for shared or
national lists, and whether detail pages may be followed. A route that lacks what its review demands is a
watch-list entry: visible, never scanned.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")


class Route(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{1,60}$")
    employer: str = Field(min_length=1, description="the employer as reviewed (display name)")
    region: str | None = None
    scannable: bool
    watch_reason: str | None = Field(default=None, description="why a watch-list entry is not scannable")
    format: Literal["html", "rss"] = "html"
    host: str | None = Field(default=None, description="fixed HTTPS host; job links must stay on it")
    list_path: str | None = Field(default=None, description="the only path the list may be read from")
    job_path_prefix: str | None = Field(default=None, description="job links start with this path")
    requires_marker: bool = False
    marker: str | None = Field(default=None, description="text the page must contain, else nothing is taken")
    requires_employer_id: bool = False
    employer_id: str | None = None
    reviewed_location: str | None = Field(default=None, description="for shared or national lists")
    keep_listed_employer: bool = Field(default=False, description="take the employer each card names")
    follow_details: bool = False
    robots_excluded_prefixes: list[str] = Field(default_factory=list, description="never fetched")

    @field_validator("host")
    @classmethod
    def _host(cls, value: str | None) -> str | None:
        if value is not None and not HOST.match(value):
            raise ValueError(f"host must be a bare lower-case DNS name without scheme or path, got {value!r}")
        return value

    @field_validator("list_path", "job_path_prefix")
    @classmethod
    def _path(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith("/"):
            raise ValueError(f"paths start with '/', got {value!r}")
        return value

    @model_validator(mode="after")
    def _scannable_means_complete(self) -> "Route":
        if not self.scannable:
            if not self.watch_reason:
                raise ValueError(f"route {self.name}: a watch-list entry needs a watch_reason")
            return self
        missing = [name for name, present in (("host", self.host), ("list_path", self.list_path),
                                              ("marker", self.marker or not self.requires_marker),
                                              ("employer_id", self.employer_id or not self.requires_employer_id))
                   if not present]
        if missing:
            raise ValueError(f"route {self.name}: scannable but missing {', '.join(missing)}; "
                             "make it a watch-list entry (scannable: false, watch_reason: ...)")
        return self

    def same_host(self, host: str | None) -> bool:
        """The route's host, or its `www.` twin: the same site, never a sibling subdomain."""
        host = (host or "").lower()
        return bool(self.host) and host in (self.host, f"www.{self.host}", self.host.removeprefix("www."))

    def may_fetch(self, url: str) -> bool:
        """Whether a spider may request this URL for this route: scannable, same host, HTTPS, not robots-excluded,
        and either the list itself or a detail page the route allows following."""
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        if not self.scannable or parts.scheme != "https" or not self.same_host(parts.hostname):
            return False
        if any(parts.path.startswith(prefix) for prefix in self.robots_excluded_prefixes):
            return False
        return parts.path == self.list_path or (self.follow_details and bool(self.job_path_prefix)
                                                 and parts.path.startswith(self.job_path_prefix))


class RouteTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reviewed: str = Field(description="who reviewed the table, and when")
    routes: list[Route]
