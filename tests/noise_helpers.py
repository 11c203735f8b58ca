"""Shared pieces of the noise tests: the Acme fixture pages and a learner wired to the local model stub."""

from __future__ import annotations

from helpers import FIXTURES

from gigflow.noise.learn.classifier import OpenAIClassifier, RulesClassifier
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage

ACME = FIXTURES / "noise" / "acme"
ACME_URLS = dict(line.split() for line in (ACME / "URLS.txt").read_text().splitlines())


def acme_page(n: int) -> TrainingPage:
    name = f"{n}.html"
    return TrainingPage(url=ACME_URLS[name], body=(ACME / name).read_bytes(), source_id="acme")


def acme_pages(*numbers: int) -> list[TrainingPage]:
    return [acme_page(n) for n in numbers]


def model_classifier(stub, **overrides) -> OpenAIClassifier:
    settings = NoiseSettings(model="stub-model", base_url=stub.base_url, api_key="test-key",
                             **{"timeout": 5.0, "retries": 0, "batch_size": 20, **overrides})
    return OpenAIClassifier(settings)


def rules_classifier(**overrides) -> RulesClassifier:
    return RulesClassifier(NoiseSettings(**overrides))


def noise_policy(region: dict) -> tuple[str, str]:
    """What a sensible model answers for the Acme regions: keep anything with pay, dates, contacts or benefits."""
    text = region["text"]
    if any(word in text for word in ("€", "Apply", "holiday", "jobs@")):
        return "keep", "holds job facts"
    return "remove", "site template"
