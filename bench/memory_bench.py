#!/usr/bin/env python3
"""Peak memory of preparation + extraction over body size: the one path a crawl runs on every job page.

usage: python bench/memory_bench.py [--sizes 1,5,10,20] [--kind html|text] [--before GIT_REV]

Each size runs in its own child process (a fresh interpreter, so each peak is its own): it builds a synthetic
job page of that many MB (sections of headings, paragraphs with links, lists and a table: what real vacancy
pages are made of), imports gigflow, warms up on a 20 kB page, records the resident set, then runs DocumentPreparer.prepare and the adapter
chain (gigflow.adapters.extract) on the bytes and records the peak resident set (VmHWM, reset to the current
resident set just before the work, so an earlier transient peak is not counted as the body's). Printed per size:
peak RSS, the increase over the resident set before the work (what the body cost), both as multiples of the body
size, the time taken, and the degradation preparation reported (if any). ``--kind text`` measures a text/plain
body. Settings come from the project (PREPARATION_MAX_BYTES and friends); pass ``-s NAME=VALUE`` to override.
``--before REV`` first prints the same curve for an older revision (exported with ``git archive``), so one run
shows before and after.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000  # body sizes and memory in decimal megabytes


def job_page(size: int) -> bytes:
    section = ("<section><h2>Responsibilities {i}</h2><p>You will design, build and run data pipelines for our "
               "logistics platform, working with <a href=\"/team/{i}\">the platform team</a> and "
               "<a href=\"https://partner.example/docs/{i}\">partners</a>. Salary &euro;{i},000 per year.</p>"
               "<ul><li>Python and SQL</li><li>Kafka, Airflow</li><li>On call one week in six</li></ul>"
               "<table><tr><th>Location</th><td>Geel {i}</td></tr><tr><th>Hours</th><td>38</td></tr></table>"
               "</section>\n")
    head = b"<!doctype html><html><head><title>Data Engineer</title></head><body><h1>Data Engineer</h1>\n"
    parts, total, i = [head], len(head), 0
    while total < size:
        chunk = section.format(i=i).encode()
        parts.append(chunk)
        total += len(chunk)
        i += 1
    parts.append(b"</body></html>\n")
    return b"".join(parts)


def text_page(size: int) -> bytes:
    line = b"Data Engineer in Geel: Python, SQL, Kafka; salary 60,000 EUR; apply at https://jobs.example.org/1\n"
    return line * (size // len(line) + 1)


def line_page(size: int) -> bytes:
    """One line of plain text, no newline at all (issue #30: a 15 MB single line peaked at 454 MB)."""
    return text_page(size).replace(b"\n", b" ")


def html_line_page(size: int) -> bytes:
    """An HTML page whose body is one paragraph on one line."""
    head = b"<!doctype html><html><head><title>Data Engineer</title></head><body><h1>Data Engineer</h1><p>"
    return head + line_page(size - len(head) - 20) + b"</p></body></html>"


PAGES = {"html": job_page, "text": text_page, "line": line_page, "html-line": html_line_page}


def child(size_mb: float, kind: str, settings: dict[str, str]) -> dict:
    import gc
    import inspect
    import resource
    import time

    from scrapy.settings import Settings

    from gigflow import settings as project_settings
    from gigflow.adapters import extract
    from gigflow.documents import DocumentPreparer

    body = PAGES[kind](int(size_mb * MB))
    content_type = "text/html; charset=utf-8" if kind.startswith("html") else "text/plain; charset=utf-8"
    config = Settings()
    config.setmodule(project_settings)
    for name, value in settings.items():
        config.set(name, value)
    client = DocumentPreparer.from_settings(config)
    # Warm up on a small page first, so lazily imported modules count in the baseline, not as the body's cost.
    small = PAGES[kind](20_000)
    client.prepare(small, "https://jobs.example.org/vacancy/0", content_type)
    # (an older gigflow without EXTRACTION_MAX_HTML_BYTES, for a before/after run, reads whole bodies)
    bound = ({"max_html_bytes": config.getint("EXTRACTION_MAX_HTML_BYTES", 0) or None}
             if "max_html_bytes" in inspect.signature(extract).parameters else {})
    extract(small, url="https://jobs.example.org/vacancy/0", content_type=content_type, **bound)
    gc.collect()
    # The peak so far (imports, the warm-up's transients) is not the body's: start the high-water mark afresh
    # at the current resident set (Linux: clear_refs 5), so the peak below is this body's alone.
    reset = _reset_peak()
    baseline = _rss_kb()
    started = time.perf_counter()
    prepared = client.prepare(body, "https://jobs.example.org/vacancy/1", content_type)
    result = extract(body, url="https://jobs.example.org/vacancy/1", content_type=content_type, **bound)
    elapsed = time.perf_counter() - started
    peak = _status_kb("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB
    return {"size_mb": len(body) / MB, "baseline_mb": baseline * 1024 / MB, "peak_mb": peak * 1024 / MB,
            "seconds": elapsed, "markdown_mb": len(prepared.markdown) / MB, "jobs": len(result.jobs),
            "degraded": "; ".join(e for e in prepared.report.errors)[:120]}


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _rss_kb() -> int:
    return _status_kb("VmRSS")


def _reset_peak() -> bool:
    """Reset this process's peak resident set to its current one; False where the kernel does not offer it (then
    the peak is ru_maxrss, which also holds whatever peaked before the measured work)."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,5,10,20", help="body sizes in MB, comma-separated")
    parser.add_argument("--kind", choices=(*PAGES, "all"), default="html",
                        help="html, text (text/plain lines), line (one text/plain line), html-line (one <p> on one "
                             "line) or all of them")
    parser.add_argument("-s", dest="settings", action="append", default=[], help="NAME=VALUE setting override")
    parser.add_argument("--before", help="also measure this git revision first (e.g. main)")
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings = dict(item.split("=", 1) for item in args.settings)
    if args.child is not None:
        print(json.dumps(child(args.child, args.kind, settings)))
        return
    if args.before:
        with tempfile.TemporaryDirectory() as folder:
            archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
            with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
                tar.extractall(folder, filter="data")
            print(f"before ({args.before}):")
            curve(args, folder)
        print("after (this tree):")
    curve(args, None)


def curve(args, other_tree: str | None) -> None:
    if args.kind == "all":
        for kind in PAGES:
            print(f"[{kind}]")
            curve(argparse.Namespace(**{**vars(args), "kind": kind}), other_tree)
        return
    env = dict(os.environ)
    # The measured tree's gigflow wins over the installed one (an editable install may point at another checkout;
    # the child's sys.path starts at bench/, not at the tree).
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [other_tree or str(ROOT), env.get("PYTHONPATH")]))
    print(f"{'body MB':>8} {'peak RSS MB':>12} {'peak/body':>10} {'added MB':>9} {'added/body':>11} {'seconds':>8}  "
          "degradation")
    for size in (float(s) for s in args.sizes.split(",")):
        command = [sys.executable, __file__, "--child", str(size), "--kind", args.kind]
        for item in args.settings:
            command += ["-s", item]
        done = subprocess.run(command, cwd=other_tree or ROOT, capture_output=True, text=True, env=env)
        if done.returncode != 0:
            print(f"{size:8.1f} failed: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
            continue
        row = json.loads(done.stdout.strip().splitlines()[-1])
        added = row["peak_mb"] - row["baseline_mb"]
        print(f"{row['size_mb']:8.1f} {row['peak_mb']:12.0f} {row['peak_mb'] / row['size_mb']:10.1f} {added:9.0f} "
              f"{added / row['size_mb']:11.1f} {row['seconds']:8.1f}  {row['degraded'] or '-'}")


if __name__ == "__main__":
    main()
