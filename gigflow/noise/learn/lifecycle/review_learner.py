"""The learner the lifecycle runs: the noise learner with its classifier, reporting calls, tokens and failed batches."""

from __future__ import annotations

from gigflow.noise.learn.classifier import make_classifier
from gigflow.noise.learn.learner import learn_noise_filter
from gigflow.noise.events import emit
from gigflow.noise.learn.lifecycle.review import LearnResult, Learner
from gigflow.noise.model import NoiseFilter
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.learn.training import TrainingPage


def make_learner(settings: NoiseSettings, classifier_kind: str | None = None) -> Learner:
    def learn(pages: list[TrainingPage], previous: NoiseFilter | None, *, config_hash: str, manual: bool,
              configuration_id: int | None = None) -> LearnResult:
        # A fresh classifier per review, so its usage counters are this review's alone.
        classifier = make_classifier(classifier_kind or settings.classifier, settings)
        result = learn_noise_filter(pages, previous, classifier, config_hash=config_hash, settings=settings,
                                    manual=manual)
        report = result.report
        for failure in report.failures:  # batches that failed before a retried review succeeded
            emit("batch_failed", configuration_id, error=failure[:500])
        return LearnResult(noise_filter=result.filter, model_calls=report.model_calls,
                           tokens=report.prompt_tokens + report.completion_tokens, report=report)

    return learn
