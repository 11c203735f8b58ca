"""Training samples from stored source versions, and the direct save of a learned filter into its configuration."""

from __future__ import annotations

from dataclasses import dataclass

from psycopg.types.json import Jsonb
from pydantic import ValidationError

from gigflow.noise.model import NoiseFilter
from gigflow.noise.training import TrainingPage
from gigflow.sql import load_sql

_SQL = "gigflow.noise"


class UnknownConfigurationError(LookupError):
    pass


@dataclass
class StoredConfiguration:
    id: int
    config_hash: str
    current: NoiseFilter | None
    current_problem: str | None  # why a stored filter was not usable


def load_configuration(pool, configuration_id: int) -> StoredConfiguration:
    with pool.connection() as conn:
        row = conn.execute(load_sql(_SQL, "get_configuration.sql"), {"configuration_id": configuration_id}).fetchone()
    if row is None:
        raise UnknownConfigurationError(f"unknown configuration {configuration_id} (see `scrapy sources list`)")
    stored = (row["config"] or {}).get("noiseFilter")
    current, problem = None, None
    if stored is not None:
        try:
            current = NoiseFilter.model_validate(stored)
        except ValidationError as exc:
            problem = f"stored noiseFilter is invalid: {exc.errors()[0]['msg']}"
        else:
            if current.config_hash != row["config_hash"]:
                current, problem = None, "stored noiseFilter was learned for another configuration hash"
    return StoredConfiguration(id=row["id"], config_hash=row["config_hash"], current=current, current_problem=problem)


def latest_samples(pool, configuration_id: int, limit: int) -> list[TrainingPage]:
    with pool.connection() as conn:
        rows = conn.execute(load_sql(_SQL, "latest_html_versions.sql"),
                            {"configuration_id": configuration_id, "limit": limit}).fetchall()
    return [TrainingPage(url=r["url"], body=bytes(r["body"]), source_id=r["source_id"], source_version_id=r["id"],
                         content_type=r["content_type"], sha256=r["sha256"]) for r in rows]


def save_noise_filter(pool, configuration_id: int, noise_filter: NoiseFilter) -> int:
    """Write the filter into configurations.config -> 'noiseFilter'; returns the configuration's new token."""
    with pool.connection() as conn:
        row = conn.execute(load_sql(_SQL, "save_noise_filter.sql"),
                           {"configuration_id": configuration_id,
                            "noise_filter": Jsonb(noise_filter.model_dump(mode="json"))}).fetchone()
    return row["token"]
