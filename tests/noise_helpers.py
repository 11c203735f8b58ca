"""Shared pieces of the noise tests: the Acme fixture pages and a learner wired to the local model stub."""

from __future__ import annotations

from helpers import FIXTURES

from gigflow.noise.learn.classifier import OpenAIClassifier, ReviewRegion, RulesClassifier, job_fact_signals
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


# Four jobs of one synthetic employer, and its site's menu: the pages the unseen-site rounds build their classes on.
FOUR_JOBS = [("welder", "Pipe Welder", "You weld stainless pipes for dairies.", "Certified welding experience"),
             ("planner", "Production Planner", "You plan the weekly runs of two lines.", "Experience with ERP planning"),
             ("driver", "Forklift Driver", "You move pallets between the halls.", "A forklift licence"),
             ("buyer", "Steel Buyer", "You buy sheet and tube from mills.", "Experience in purchasing")]
SITE_MENU = ("<nav><ul><li><a href='/'>Home</a></li><li><a href='/products/'>Products</a></li>"
             "<li><a href='/about/'>About</a></li><li><a href='/jobs/'>Jobs</a></li></ul></nav>")


def learn_four_jobs(make, origin: str, unseen: int = 3) -> tuple:
    """Learn with the rules on three of FOUR_JOBS' pages (``make(k, slug, title, text, need)`` writes one) and
    prepare the ``unseen`` one with the filter: (the learning result, that page's Markdown)."""
    from gigflow.documents import prepare_html
    from gigflow.noise.learn.learner import learn_noise_filter

    pages = [TrainingPage(url=f"{origin}/jobs/{slug}/", body=make(k, slug, title, text, need).encode())
             for k, (slug, title, text, need) in enumerate(FOUR_JOBS)]
    training = [page for k, page in enumerate(pages) if k != unseen]
    result = learn_noise_filter(training, None, RulesClassifier(NoiseSettings()), config_hash="h")
    page = pages[unseen]
    return result, prepare_html(page.body, page.url, noise_filter=result.filter).markdown


def duties(title: str) -> str:
    """A job's own words, longer than the lists beside it as on a real posting."""
    return (f"As our {title} you join a team of twelve in the north hall, work day shifts from Monday to Friday, "
            f"take part in the weekly planning round and report to the head of production about the {title} "
            "work of the week, the material you need next and what could run better.")


def posting_with_aside(title: str, text: str, need: str, aside: str) -> str:
    """One of the four jobs' pages: the site menu, the job in an article, ``aside`` beside it, a footer link."""
    return (f"<html><head><title>{title}</title></head><body><header>{SITE_MENU}</header>"
            f"<main><article><h1>{title}</h1><p>{text} {duties(title)}</p><h4>Your profile</h4><ul><li>{need}</li>"
            f"</ul></article>{aside}</main><footer><a href='/imprint/'>Imprint</a></footer></body></html>")


def signal_kinds(text: str, links=()) -> set[str]:
    """The job-fact signal kinds the rules read in a region of ``text`` with ``links`` ((text, href) pairs)."""
    region = ReviewRegion(id="r", selector="div", signature="s", tag="div", text=text, links=tuple(links),
                          html="<div/>")
    return {signal.kind for signal in job_fact_signals(region)}
