"""On the real corpus's same-site groups (../shared/corpus and ../shared/corpus-extra): learn with `rules` on up to
6 pages, apply to every page of the site.

Every labelled fact survives and at least 90% of the template noise (as ../shared/tools/eval_markdown.py defines
it) is removed. Skipped where the shared corpus is not beside the clone. (`make bench-noise` measures the same
leave-one-page-out, on our development set too.)
"""

from __future__ import annotations

import collections
import importlib.util
import json
import sys

import pytest
from helpers import ROOT, SHARED

CORPUS = SHARED / "corpus"
CORPUS_EXTRA = SHARED / "corpus-extra"
EVAL = SHARED / "tools" / "eval_markdown.py"
pytestmark = pytest.mark.skipif(not (CORPUS / "facts.jsonl").exists() or not EVAL.exists(),
                                reason="../shared/corpus and ../shared/tools are not beside the clone")


def _bench():
    spec = importlib.util.spec_from_file_location("noise_bench", ROOT / "bench" / "noise_bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_rules_filter_keeps_every_fact_and_removes_most_template_noise():
    bench = _bench()
    ev = bench.load_eval(EVAL)
    sites = bench.load_sites([CORPUS, CORPUS_EXTRA], None)
    assert len(sites) >= 4
    if CORPUS_EXTRA.exists():
        assert {"lootwork", "hbg-sicherheit-de"} <= {site.name for site in sites}
    kept = total = removed = noise = 0
    lost = []
    for site in sites:
        template = bench.site_templates(ev, site.root, site.pages)
        paths = [(site.path(p), p.get("url")) for p in site.pages]
        noise_filter, report, _ = bench.learn(paths, "rules", 6)
        assert noise_filter is not None and report.model_calls == 0
        outputs = {p["page"]: bench.gigflow_markdown(path, url, noise_filter) for p, (path, url) in zip(site.pages, paths)}
        k, t, r, n = bench.score(ev, site.pages, outputs, template)
        kept, total, removed, noise = kept + k, total + t, removed + r, noise + n
        if k != t:
            lost.append(site.name)
    assert kept == total, f"facts lost on {lost}"
    assert removed / noise >= 0.90, f"template noise removed: {removed / noise:.1%}"


def test_with_a_model_configured_the_bench_compares_it_with_the_rules_per_site(tmp_path):
    import subprocess
    import sys

    if not CORPUS_EXTRA.exists():
        pytest.skip("../shared/corpus-extra is not beside the clone")

    from openai_stub_server import OpenAIStub, decide

    out = tmp_path / "bench.json"
    with OpenAIStub(default=decide(lambda region: ("keep", "unsure"))) as stub:
        result = subprocess.run([sys.executable, str(ROOT / "bench" / "noise_bench.py"), "--json", str(out),
                                 "--no-devset", "--max-eval", "2",
                                 "--sites", "aisthis-be,jobs-ch,lootwork,hbg-sicherheit-de"],
                                capture_output=True, text=True, timeout=600,
                                env={**__import__("os").environ, "GIGFLOW_NOISE_MODEL": "stub-model",
                                     "OPENAI_BASE_URL": stub.base_url, "OPENAI_API_KEY": "test-key"})
        assert result.returncode == 0, result.stderr[-3000:]
        assert stub.requests
    rows = json.loads(out.read_text())["rows"]
    systems = {(row["site"], row["system"]) for row in rows}
    sites = {row["site"] for row in rows}
    assert len(sites) >= 4
    assert all((site, "gigflow-openai") in systems and (site, "gigflow-rules") in systems for site in sites)
    # A model that keeps everything removes nothing and loses nothing: the bench measures what the model decided.
    model = [row for row in rows if row["system"] == "gigflow-openai"]
    assert all(row["rules"] == "0-0" and row["kept"] == row["facts"] for row in model)
