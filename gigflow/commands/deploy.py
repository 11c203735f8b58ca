"""scrapy deploy: build the egg in a temporary folder and add it to every scrapyd node."""

import tempfile
from pathlib import Path

from gigflow.commands import GigflowCommand


class Command(GigflowCommand):
    def syntax(self):
        return "[--url URL] [--project P] [--egg-dir DIR]"

    def short_desc(self):
        return "Build the project's egg (nothing written into the checkout) and deploy it to the scrapyd nodes"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="one scrapyd node (default: SCRAPYD_NODES, else SCRAPYD_URL)")
        parser.add_argument("--project", help="scrapyd project (default: the SCRAPYD_PROJECT setting)")
        parser.add_argument("--egg-dir", help="only build the egg into this folder; deploy nothing")

    def run(self, args, opts):
        # Imported here: scrapy imports every command module at start-up, whichever command runs.
        from gigflow.scheduling.deploy import DeployError, add_version, build_egg, egg_version
        from gigflow.scheduling.scrapyd import parse_nodes

        settings = self.settings
        try:
            nodes = parse_nodes([opts.url] if opts.url else settings.get("SCRAPYD_NODES"),
                                settings.get("SCRAPYD_URL"), settings.getint("SCRAPYD_NODE_SLOTS"))
            if opts.egg_dir:
                print(build_egg(Path(opts.egg_dir)))
                return
            project, version = opts.project or settings.get("SCRAPYD_PROJECT"), egg_version()
            with tempfile.TemporaryDirectory(prefix="gigflow-deploy-") as tmp:
                egg = build_egg(Path(tmp))
                for url, _slots in nodes:
                    answer = add_version(url, project, version, egg)
                    print(f"{url}: project {project} version {version}, spiders: {answer.get('spiders')}")
        except (ValueError, DeployError) as exc:
            return self.fail(str(exc))
