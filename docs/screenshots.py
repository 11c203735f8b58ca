"""`make screenshots`: PNGs of each review app page, from the demo data, into docs/screenshots/.

Needs the demo's data in the configured database (`make demo` first). Links the demo's jobs to canonical jobs
and scores them as the maintenance worker would (`scrapy jobs resolve`, `scrapy jobs refresh`: no link checks, the
demo site is gone by now), starts `scrapy ui` on a free loopback port and opens each page in headless Chromium
(CLICK_CHROMIUM_PATH, default /usr/bin/chromium)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    from gigflow.db import get_pool
    from playwright.sync_api import sync_playwright

    with get_pool().connection() as conn:
        source = conn.execute("SELECT id, configuration_id FROM sources WHERE id = 'demo'").fetchone()
        job = conn.execute("SELECT id, source_version_id FROM jobs WHERE source_id = 'demo' AND title = 'Data Analyst'"
                           ).fetchone()
    if not source or not job:
        print("error: no demo data in this database: run `make demo` first", file=sys.stderr)
        return 2
    from gigflow import api

    api.resolve()
    api.refresh()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ui = subprocess.Popen([sys.executable, "-m", "scrapy", "ui", "--port", str(port)], cwd=ROOT)
    try:
        for _ in range(150):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        base = f"http://127.0.0.1:{port}"
        pages = {"sources": "/", "source": "/sources/demo", "job": f"/jobs/{job['id']}",
                 "noise-review": f"/configurations/{source['configuration_id']}/noise?version={job['source_version_id']}"}
        chromium = os.environ.get("CLICK_CHROMIUM_PATH", "/usr/bin/chromium")
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium if Path(chromium).exists() else None)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            for name, path in pages.items():
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
                page.screenshot(path=OUT / f"{name}.png", full_page=name != "noise-review")
                print(f"wrote {OUT.relative_to(ROOT) / (name + '.png')}  ({path})")
            browser.close()
    finally:
        ui.terminate()
        ui.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
