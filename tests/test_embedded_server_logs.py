"""The embedded PostgreSQL (no GIGFLOW_DATABASE_URL) stays out of the log of every command that logs."""

import os
import signal

from helpers import run_scrapy


def test_commands_that_log_do_not_print_the_embedded_servers_start_up_lines(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GIGFLOW_DATABASE_URL"}
    env["GIGFLOW_HOME"] = str(tmp_path / "home")
    try:
        runs = [run_scrapy("crawl", "href", "-a", "source=nothing-here", env=env) for _ in range(2)]  # start, reuse
    finally:
        pid_file = tmp_path / "home" / "pgdata" / "postmaster.pid"
        if pid_file.exists():  # the server this test started outlives its commands by design: stop it (fast)
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
    for result in runs:
        assert "[pgserver]" not in result.stderr, result.stderr[-3000:]
        assert "[scrapy.utils.log] INFO: Scrapy" in result.stderr  # the command does log


def test_processes_that_start_a_new_homes_server_together_all_get_it(tmp_path):
    """Test workers (and a crawl beside a command) start a new home's embedded server at the same moment: one
    creates it, the others wait and reuse it; none fails in initdb."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "GIGFLOW_DATABASE_URL"}
    env["GIGFLOW_HOME"] = str(tmp_path / "home")
    code = "from gigflow.db.connection import embedded_server_url; print(embedded_server_url())"
    try:
        starters = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True) for _ in range(3)]
        results = [(p.wait(timeout=120), *p.communicate()) for p in starters]
    finally:
        pid_file = tmp_path / "home" / "pgdata" / "postmaster.pid"
        if pid_file.exists():
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
    assert [code for code, _, _ in results] == [0, 0, 0], [err[-2000:] for _, _, err in results]
    assert len({out.strip() for _, out, _ in results}) == 1
