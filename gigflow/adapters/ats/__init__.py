"""The five public ATS providers. Each module exposes its adapter, `listing_url(board, base=...)`,
`detail_url(...)` and `next_page(payload, url)`, so spiders build requests without provider-specific parsing."""

from __future__ import annotations

from types import ModuleType

from gigflow.adapters.ats import greenhouse, lever, recruitee, smartrecruiters, workable

PROVIDERS: dict[str, ModuleType] = {
    "greenhouse": greenhouse,
    "lever": lever,
    "recruitee": recruitee,
    "smartrecruiters": smartrecruiters,
    "workable": workable,
}

ADAPTERS = {
    "greenhouse": greenhouse.GreenhouseAdapter(),
    "lever": lever.LeverAdapter(),
    "recruitee": recruitee.RecruiteeAdapter(),
    "smartrecruiters": smartrecruiters.SmartRecruitersAdapter(),
    "workable": workable.WorkableAdapter(),
}


def provider(key: str) -> ModuleType:
    """The provider module for a parser key; a clear error names the known keys."""
    try:
        return PROVIDERS[key]
    except KeyError:
        raise KeyError(f"unknown ATS provider {key!r}; known: {', '.join(sorted(PROVIDERS))}") from None


__all__ = ["ADAPTERS", "PROVIDERS", "greenhouse", "lever", "provider", "recruitee", "smartrecruiters", "workable"]
