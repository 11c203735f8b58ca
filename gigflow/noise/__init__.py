"""Learned noise filters. `apply` is pure and runs inside preparation; `learn` runs from commands and the worker.

This package never imports spiders or pipelines.
"""

from gigflow.noise.apply import apply_noise_filter
from gigflow.noise.model import NoiseFilter, RemovalRule, SampleRef
from gigflow.noise.signature import region_signature

__all__ = ["NoiseFilter", "RemovalRule", "SampleRef", "apply_noise_filter", "region_signature"]
