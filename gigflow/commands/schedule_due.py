"""scrapy schedule-due: ask the scrapyd nodes to crawl every active source whose next_crawl_at has passed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gigflow.commands import GigflowCommand, table
from gigflow.safety.guard import redact_url

if TYPE_CHECKING:
    from gigflow.scheduling.scrapyd import ScheduleRequest


def schedule_request(settings, spiders, cmdline_settings=None, url: str | None = None,
                     project: str | None = None) -> ScheduleRequest:
    """The scheduling pass the settings describe (raises ValueError naming a bad setting)."""
    # Imported here: scrapy imports every command module at start-up, whichever command runs.
    from gigflow.politeness.keys import Policies
    from gigflow.scheduling.scrapyd import ScheduleRequest, job_settings_from, parse_nodes

    nodes = parse_nodes([url] if url else settings.get("SCRAPYD_NODES"), settings.get("SCRAPYD_URL"),
                        settings.getint("SCRAPYD_NODE_SLOTS"))
    per_job = settings.getint("SCHEDULE_SOURCES_PER_JOB")
    if per_job < 1:
        raise ValueError(f"SCHEDULE_SOURCES_PER_JOB must be at least 1, not {per_job}")
    policies = Policies.from_settings(settings)  # a bad policy is a ValueError naming it
    return ScheduleRequest(nodes=nodes, project=project or settings.get("SCRAPYD_PROJECT"),
                           spiders=frozenset(spiders), claim_seconds=settings.getfloat("SCHEDULE_CLAIM_SECONDS"),
                           job_settings=job_settings_from(cmdline_settings, settings.get("SCRAPYD_JOB_SETTINGS")),
                           timeout=settings.getfloat("SCRAPYD_TIMEOUT"), sources_per_job=per_job,
                           policies=policies, ats_base_urls=settings.getdict("ATS_BASE_URLS"))


class Command(GigflowCommand):
    requires_crawler_process = True  # its spider loader lists the strategies a source may name
    def syntax(self):
        return "[--url URL] [--project P] [--dry-run] [--worker]"

    def short_desc(self):
        return "Schedule scrapyd jobs for every active source that is due, spread over the nodes' free slots"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="one scrapyd node (default: SCRAPYD_NODES, else SCRAPYD_URL)")
        parser.add_argument("--project", help="scrapyd project (default: the SCRAPYD_PROJECT setting)")
        parser.add_argument("--dry-run", action="store_true", help="list what would be scheduled; change nothing")
        parser.add_argument("--worker", action="store_true",
                            help="run a procrastinate worker that schedules due sources on SCHEDULE_DUE_CRON")

    def run(self, args, opts):
        from gigflow.scheduling.scrapyd import schedule_due

        try:
            request = schedule_request(self.settings, self.crawler_process.spider_loader.list(), opts.set,
                                       opts.url, opts.project)
        except ValueError as exc:
            return self.fail(str(exc))
        if opts.worker:
            from scrapy.utils.log import configure_logging

            from gigflow.safety.extension import RedactCredentials
            from gigflow.scheduling.task import run_schedule_worker

            configure_logging({"LOG_ENABLED": True, "LOG_LEVEL": self.settings.get("LOG_LEVEL", "INFO")})
            RedactCredentials().install()  # the node URL may carry user:password@
            self.pool  # migrations before the worker starts
            run_schedule_worker(self.database_url, request, self.settings.get("SCHEDULE_DUE_CRON"),
                                self.settings.getfloat("QUEUE_STALLED_SECONDS"))
            return
        results, nodes = schedule_due(self.pool, request, dry_run=opts.dry_run)
        for node in nodes:
            if node.error:
                print(redact_url(f"node {node.url}: {node.error}"))
        reachable = [n for n in nodes if n.error is None]
        if not results:
            if not reachable:
                print("no scrapyd node answered")
                self.exitcode = 1
            else:
                print("no source is due" if sum(n.free for n in reachable) else "no free slot on any node")
            return
        print(redact_url(table([r.__dict__ for r in results], ["source_id", "spider", "node", "job_id", "error"])))
        if any(r.error for r in results):
            self.exitcode = 1
