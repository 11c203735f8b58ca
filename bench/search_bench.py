"""Search quality on the corpus jobs (`make bench-search`): MRR and nDCG@10 of the read API's search over every job
the adapters read from ../shared/corpus (html, ats, feeds) and ../shared/corpus-extra (html), for the labelled
queries in bench/search_queries.json (graded 0-3; see its "about"), beside two plain baselines on the same jobs:
one English dictionary over all the text, and the simple dictionary (no stemming), both unweighted.

MRR: 1 / rank of the first job graded 2 or 3 in the top 10 (0 when none). nDCG@10: gains 2^grade - 1 against the
ideal order of every judged job. Runs in a throwaway database (GIGFLOW_TEST_DATABASE_URL's server, else the
embedded one); `--show` prints each query's top results."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

CORPORA = [(ROOT.parent / "shared" / "corpus", ("html/*/*.html", "ats/*/*", "feeds/*")),
           (ROOT.parent / "shared" / "corpus-extra", ("html/*/*.html",))]
BASELINES = {
    "english, unweighted": "english",
    "simple, unweighted": "simple",
}
BASELINE_SQL = """
SELECT c.canonical_id AS id, ts_rank_cd(v.doc, q.query) AS rank
FROM canonical_links c JOIN jobs j ON j.id = c.job_id,
     LATERAL (SELECT to_tsvector(%(config)s::regconfig, j.title || ' ' || coalesce(j.fields->>'employer', '') || ' '
                     || coalesce(j.fields->>'location', '') || ' ' || coalesce(j.fields->>'description', '')) AS doc) v,
     (SELECT websearch_to_tsquery(%(config)s::regconfig, %(q)s) AS query) q
WHERE v.doc @@ q.query
ORDER BY rank DESC, id DESC LIMIT 10"""


def corpus_jobs() -> list[dict]:
    from gigflow.adapters import extract

    jobs = []
    for root, patterns in CORPORA:
        for pattern in patterns:
            for path in sorted(root.glob(pattern)):
                key = path.parent.name if pattern.startswith("ats") else None
                relative = f"{root.name}/{path.relative_to(root)}"
                try:
                    result = extract(path.read_bytes(), url=f"https://corpus.example/{relative}", parser_key=key)
                except Exception as exc:  # a payload no adapter reads is left out, and said so
                    print(f"skipped {relative}: {exc}", file=sys.stderr)
                    continue
                for n, job in enumerate(result.jobs):
                    fields = job.model_dump(exclude={"evidence", "raw", "title", "url", "external_id"},
                                            exclude_none=True)
                    jobs.append({"file": relative, "n": n, "title": job.title, "url": job.url, "fields": fields})
    return jobs


def load(pool, jobs: list[dict]) -> dict[int, dict]:
    """Every job as its own published canonical job (sources by corpus folder); canonical id -> job."""
    by_canonical = {}
    with pool.connection() as conn, conn.transaction():
        company = conn.execute("INSERT INTO companies (name) VALUES ('corpus') RETURNING id").fetchone()["id"]
        sources = {}
        for job in jobs:
            site = job["file"].split("/")[2] if job["file"].count("/") >= 3 else job["file"].split("/")[1]
            if site not in sources:
                config = conn.execute(
                    "INSERT INTO configurations (company_id, canonical_url, strategies, config_hash)"
                    " VALUES (%s, %s, '[]', '') RETURNING id", (company, f"https://{site}.example/")).fetchone()["id"]
                conn.execute("INSERT INTO sources (id, configuration_id, company_id, url) VALUES (%s, %s, %s, %s)",
                             (site, config, company, f"https://{site}.example/"))
                sources[site] = True
            job_id = conn.execute(
                "INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key,"
                " parser_version) VALUES (%s, %s, %s, %s, %s, 0.9, 'corpus', '1') RETURNING id",
                (f"{job['file']}#{job['n']}", site, job["title"], job["url"], json.dumps(job["fields"]))
            ).fetchone()["id"]
            canonical = conn.execute("INSERT INTO canonical_jobs (published_at) VALUES (now()) RETURNING id"
                                     ).fetchone()["id"]
            conn.execute("INSERT INTO canonical_links (job_id, canonical_id, score) VALUES (%s, %s, 1)",
                         (job_id, canonical))
            conn.execute("INSERT INTO canonical_events (canonical_id, kind) VALUES (%s, 'created')", (canonical,))
            by_canonical[canonical] = job
    return by_canonical


def grade(job: dict, judgments: list) -> int:
    values = {"title": job["title"], "employer": job["fields"].get("employer") or "",
              "location": job["fields"].get("location") or "", "file": job["file"]}
    for value, rule in judgments:
        if all(re.search(pattern, values[name] or "", re.I) for name, pattern in rule.items()):
            return value
    return 0


def scores(ranked: list[int], grades: dict[int, int]) -> tuple[float, float]:
    mrr = next((1 / rank for rank, cid in enumerate(ranked[:10], 1) if grades.get(cid, 0) >= 2), 0.0)
    dcg = sum((2 ** grades.get(cid, 0) - 1) / math.log2(rank + 1) for rank, cid in enumerate(ranked[:10], 1))
    ideal = sorted(grades.values(), reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(rank + 1) for rank, g in enumerate(ideal, 1))
    return mrr, (dcg / idcg if idcg else 0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=Path, default=ROOT / "bench" / "search_queries.json")
    parser.add_argument("--show", action="store_true", help="print each query's top results and grades")
    args = parser.parse_args()
    from scale_bench import drop_database, throwaway_database

    from gigflow.db import get_pool
    from gigflow.delivery import language
    from gigflow.delivery.routes.jobs import any_words
    from gigflow.delivery.indexer import catch_up
    from gigflow.store import delivery as store

    queries = json.loads(args.queries.read_text(encoding="utf-8"))["queries"]
    jobs = corpus_jobs()
    admin, name, url = throwaway_database("search")
    try:
        pool = get_pool(url)
        by_canonical = load(pool, jobs)
        started = time.perf_counter()
        catch_up(pool)
        index_s = time.perf_counter() - started
        with pool.connection() as conn:
            languages = {r["language"]: r["n"] for r in conn.execute(
                "SELECT language, count(*) AS n FROM delivery_jobs GROUP BY 1 ORDER BY 2 DESC")}
        print(f"{len(jobs)} corpus jobs indexed in {index_s:.2f} s; dictionaries: "
              + ", ".join(f"{k} {v}" for k, v in languages.items()))
        print(f"{len(queries)} labelled queries: " + ", ".join(
            f"{lang} {n}" for lang, n in sorted(_count(q["lang"] for q in queries).items(), key=lambda x: -x[1])))
        systems = {"gigflow (per-language, weighted)": None, **BASELINES}
        results: dict[str, dict[str, list[tuple[float, float]]]] = {s: defaultdict(list) for s in systems}
        latencies = []
        for query in queries:
            grades = {cid: g for cid, job in by_canonical.items() if (g := grade(job, query["judgments"]))}
            for system, config in systems.items():
                with pool.connection() as conn:
                    if config is None:
                        q = " ".join(language.cjk_bigrams(query["q"]).split())
                        t0 = time.perf_counter()
                        params = {"q": q, "source": None, "employer": None, "location": None, "remote": None,
                                  "employment_type": None, "posted_since": None, "before": None, "rank": None,
                                  "limit": 10, "normalization": 1, "configs": list(language.QUERY_CONFIGS)}
                        rows = store.list_jobs(conn, params)
                        if not rows and any_words(q):  # as the API does: any word when no job has all
                            rows = store.list_jobs(conn, {**params, "q": any_words(q)})
                        latencies.append(time.perf_counter() - t0)
                    else:
                        rows = [SimpleNamespace(**row) for row in conn.execute(
                            BASELINE_SQL, {"config": config, "q": query["q"]}).fetchall()]
                ranked = [row.id for row in rows]
                results[system][query["lang"]].append(scores(ranked, grades))
                if args.show and config is None:
                    mrr, ndcg = scores(ranked, grades)
                    print(f"\n{query['q']!r} ({query['lang']}) MRR {mrr:.2f} nDCG@10 {ndcg:.2f}")
                    for cid in ranked[:5]:
                        print(f"   {grades.get(cid, 0)}  {by_canonical[cid]['title'][:70]}")
        print(f"\n{'system':36} {'MRR':>6} {'nDCG@10':>8}   per language (MRR)")
        for system in systems:
            flat = [s for per in results[system].values() for s in per]
            mrr = sum(s[0] for s in flat) / len(flat)
            ndcg = sum(s[1] for s in flat) / len(flat)
            per = ", ".join(f"{lang} {sum(s[0] for s in v) / len(v):.2f}" for lang, v in results[system].items())
            print(f"{system:36} {mrr:6.3f} {ndcg:8.3f}   {per}")
        latencies.sort()
        print(f"\nsearch query p50 {1000 * latencies[len(latencies) // 2]:.1f} ms over {len(jobs)} jobs")
    finally:
        drop_database(admin, name)
    return 0


def _count(items) -> dict:
    counts: dict = defaultdict(int)
    for item in items:
        counts[item] += 1
    return counts


if __name__ == "__main__":
    sys.exit(main())
