"""The house's import rules, read from the source (every import, function-level ones included; imports only for
type annotations, under ``if TYPE_CHECKING:``, are not dependencies). See docs/architecture.md."""

from __future__ import annotations

import ast
import collections
import re
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gigflow"

# Data flows spiders -> middlewares -> documents -> adapters -> pipelines. A stage never imports the stages that
# drive it: what comes before it in this list and is named in its row.
AGAINST_THE_FLOW = {
    "middlewares": {"spiders", "browser"},
    "browser": {"spiders"},  # the click spider's headless Chromium: the spider drives it, never the reverse
    "documents": {"spiders", "middlewares", "adapters", "pipelines", "noise.learn"},
    "adapters": {"spiders", "middlewares", "pipelines", "noise", "noise.learn"},
    "pipelines": {"spiders", "middlewares", "documents"},
    # The flow's bottom: the owners of the crawl's tables (and what writing jobs needs) import none of the flow.
    "store": {"spiders", "middlewares", "browser", "documents", "adapters", "pipelines", "noise", "noise.learn"},
    "noise": {"spiders", "middlewares", "documents", "adapters", "pipelines", "noise.learn"},
    # Finishing a run is a bottom-ish room: the components that take part register on its ledger, it imports none.
    "runs": {"spiders", "middlewares", "documents", "adapters", "pipelines", "noise", "noise.learn", "context",
             "health", "scheduling", "maintenance", "browser", "commands", "ui"},
}
# Preparation, extraction and noise apply are pure: no database, no network client.
PURE = {"documents", "adapters", "noise"}
IMPURE_MODULES = ("gigflow.db", "gigflow.sql", "psycopg", "psycopg_pool", "scrapy", "twisted", "openai")
# Noise learning runs from its commands, the review app and the worker (its queue); nothing on the crawl path (the
# crawl's review request is noise learning's own extension, which settings name by dotted path).
LEARNING_USERS = {"commands", "ui", "noise.learn"}


def unit(module: str) -> str:
    """The room a module belongs to: gigflow.<package>, with noise's learning half a room of its own."""
    parts = module.split(".")
    if parts[:3] == ["gigflow", "noise", "learn"]:
        return "noise.learn"
    return parts[1] if len(parts) > 1 else "gigflow"


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


def imports_of(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                raise AssertionError(f"{path}:{node.lineno}: relative import; the house uses absolute imports")
            found.append((node.module, node.lineno))
    return found


@pytest.fixture(scope="module")
def graph():
    """{module: [(imported module, line)]} for every module of the package."""
    return {module_name(path): imports_of(path) for path in sorted(PACKAGE.rglob("*.py"))}


def room_edges(graph) -> dict[str, set[str]]:
    edges = defaultdict(set)
    for module, imported in graph.items():
        for name, _ in imported:
            if name.startswith("gigflow.") and unit(name) != unit(module):
                edges[unit(module)].add(unit(name))
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_no_import_cycle_between_rooms(graph):
    assert find_cycle(room_edges(graph)) is None


def test_no_import_cycle_between_modules(graph):
    edges = {module: {name for name, _ in imported if name in graph} - {module} for module, imported in graph.items()}
    # a package's __init__ re-exporting its own modules is not a cycle of behaviour
    edges = {m: {n for n in targets if not m.startswith(n + ".")} for m, targets in edges.items()}
    assert find_cycle(edges) is None


def test_no_import_against_the_flow(graph):
    wrong = [f"{module}:{line} imports {name}" for module, imported in graph.items() for name, line in imported
             if name.startswith("gigflow.") and unit(name) in AGAINST_THE_FLOW.get(unit(module), ())]
    assert wrong == []


def test_preparation_extraction_and_noise_apply_are_pure(graph):
    wrong = [f"{module}:{line} imports {name}" for module, imported in graph.items() for name, line in imported
             if unit(module) in PURE and any(name == m or name.startswith(m + ".") for m in IMPURE_MODULES)]
    assert wrong == []


def test_spiders_hold_no_sql_and_middlewares_read_nothing_off_the_spider(graph):
    """Queries go through store/ (or the room that owns the table); run state comes from the crawl context."""
    wrong = [f"{module}:{line} imports {name}" for module, imported in graph.items() for name, line in imported
             if unit(module) == "spiders" and name == "gigflow.sql"]
    assert wrong == []
    offenders = [path.name for path in (PACKAGE / "middlewares").glob("*.py")
                 if "getattr(spider" in path.read_text(encoding="utf-8")]
    assert offenders == []


def test_key_names_import_nothing_and_run_decisions_are_pure(graph):
    """gigflow.keys is the bottom floor every room may import; decide_outcome and next_crawl read no database."""
    assert graph["gigflow.keys"] == []
    wrong = [name for name, _ in graph["gigflow.runs.decide"]
             if any(name == m or name.startswith(m + ".") for m in IMPURE_MODULES)]
    assert wrong == [] and {name for name, _ in graph["gigflow.runs.decide"]} <= {
        "__future__", "dataclasses", "datetime", "typing", "gigflow.runs.exits", "gigflow.runs.ledger"}


def test_noise_learning_is_used_only_by_its_commands_review_app_and_worker(graph):
    wrong = [f"{module}:{line} imports {name}" for module, imported in graph.items() for name, line in imported
             if unit(name) == "noise.learn" and name.startswith("gigflow.") and unit(module) not in LEARNING_USERS]
    assert wrong == []


def test_documents_import_noise_apply(graph):
    """The flow's one link into noise: preparation applies the learned filter."""
    assert any(name == "gigflow.noise.apply" for name, _ in graph["gigflow.documents.html"])


# Modules allowed a class- or module-level weak registry, each with the reason; what a crawl's components share
# lives on its crawler instead (gigflow/crawler_parts.py).
WEAK_REGISTRY_ALLOWED: dict[str, str] = {}
WEAK_MAPPINGS = {"WeakKeyDictionary", "WeakValueDictionary"}


def weak_registries(path: Path) -> list[int]:
    """Lines where a module or class body (not a function) assigns a weak mapping: a registry keyed by crawler,
    event loop or the like that outlives the object it serves."""
    found = []

    def scan(body):
        for node in body:
            if isinstance(node, ast.ClassDef):
                scan(node.body)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
                names |= {n.attr for n in ast.walk(node.value) if isinstance(n, ast.Attribute)}
                if names & WEAK_MAPPINGS:
                    found.append(node.lineno)

    scan(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def private_names_imported(path: Path) -> list[tuple[str, str, int]]:
    """(module, name, line) for each ``from gigflow.X import _name`` (dunders are not private)."""
    return [(node.module, alias.name, node.lineno) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gigflow.")
            for alias in node.names if alias.name.startswith("_") and not alias.name.startswith("__")]


def test_no_registry_keyed_by_crawler_on_a_class_or_module():
    wrong = [f"{module_name(path)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
             if module_name(path) not in WEAK_REGISTRY_ALLOWED for line in weak_registries(path)]
    assert wrong == []


def test_no_room_imports_another_rooms_private_name():
    """A room's ``_name`` is its own: another room asks for a public one."""
    wrong = [f"{module_name(path)}:{line} imports {name} from {module}" for path in sorted(PACKAGE.rglob("*.py"))
             for module, name, line in private_names_imported(path) if unit(module) != unit(module_name(path))]
    assert wrong == []


def test_the_rules_see_a_violation(tmp_path):
    """The reader finds imports inside functions too (a lazy import is still a dependency)."""
    path = tmp_path / "x.py"
    path.write_text("def f():\n    from gigflow.spiders.base import SourceSpider\n")
    assert imports_of(path) == [("gigflow.spiders.base", 2)]
    path.write_text("import weakref\nfrom gigflow.sources.config import _css, __all__\n"
                    "BY_CRAWLER = weakref.WeakKeyDictionary()\n"
                    "class Gate:\n    _by_loop: dict = weakref.WeakKeyDictionary()\n"
                    "    def f(self):\n        local = weakref.WeakKeyDictionary()\n")
    assert weak_registries(path) == [3, 5]
    assert private_names_imported(path) == [("gigflow.sources.config", "_css", 2)]
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


# SQL ownership (docs/architecture.md, "Who owns which table"): only the owner writes its tables.
OWNED_TABLES = {"jobs": "store", "job_events": "store", "source_versions": "store", "bodies": "store",
                "markdowns": "store"}
WRITES = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?(\w+)", re.IGNORECASE)
NOT_A_ROOM = {"db/migrations"}  # the schema's own history: migrations create and backfill every table


def writes_to_owned_tables(text: str) -> set[str]:
    return {match.lower() for match in WRITES.findall(text)} & set(OWNED_TABLES)


def test_only_the_owner_writes_its_tables():
    """No .sql file, nor SQL in a module, outside the owner's room writes jobs, job_events, source_versions,
    bodies or markdowns (migrations aside)."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix not in (".sql", ".py") or any(part in path.relative_to(PACKAGE).as_posix()
                                                     for part in NOT_A_ROOM):
            continue
        room = unit(module_name(path.with_suffix(".py")))
        for table in writes_to_owned_tables(path.read_text(encoding="utf-8")):
            if OWNED_TABLES[table] != room:
                wrong.append(f"{path.relative_to(PACKAGE)} writes {table} (owner: {OWNED_TABLES[table]}/)")
    assert wrong == []


def named_query_references(path: Path) -> list[tuple[str, str, str, int]]:
    """(package, file, query name, line) for each named query a module names: ``load_queries(p, f)["name"]`` and,
    in a module whose ``_sql(name)`` helper reads ``load_queries(p, f)[name]``, each ``_sql("name")``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def queries_file(node) -> tuple[str, str] | None:
        if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "load_queries"
                and len(node.args) == 2 and all(isinstance(a, ast.Constant) for a in node.args)):
            return node.args[0].value, node.args[1].value
        return None

    found, helper = [], None
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and (source := queries_file(node.value)):
            if isinstance(node.slice, ast.Constant):
                found.append((*source, node.slice.value, node.lineno))
        if isinstance(node, ast.FunctionDef) and node.name == "_sql":
            helper = next((source for inner in ast.walk(node) if (source := queries_file(inner))), None)
    if helper is not None:
        found += [(*helper, node.args[0].value, node.lineno) for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_sql"
                  and node.args and isinstance(node.args[0], ast.Constant)]
    return found


def test_every_named_query_named_in_code_exists_and_every_one_is_used():
    from gigflow.sql import load_queries

    references = [(path, ref) for path in sorted(PACKAGE.rglob("*.py")) for ref in named_query_references(path)]
    assert references, "no named query found: the reader is broken"
    missing = [f"{path.relative_to(PACKAGE)}:{line}: {package}/{file} has no query {name!r}"
               for path, (package, file, name, line) in references if name not in load_queries(package, file)]
    assert missing == []
    # And no dead SQL: every query of a named-queries file is named (as a string) by some module.
    strings = {node.value for path in PACKAGE.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    files = {(package, file) for _, (package, file, _, _) in references}
    unused = [f"{package}/{file}: {name}" for package, file in sorted(files)
              for name in load_queries(package, file) if name not in strings]
    assert unused == []


def test_every_sql_file_is_one_owners_named_queries_or_a_whole_script():
    """SQL lives in one named-queries file per owner module (read by that module alone); the only other .sql files
    are the scripts run whole: migrations and the stored procedures migrate re-applies (``sql/proc_*.sql``)."""
    from gigflow.db.migrate import PROCEDURE_PACKAGES

    procedure_folders = {PACKAGE.parent.joinpath(*package.split(".")) / "sql" for package in PROCEDURE_PACKAGES}
    readers = collections.defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        for package, file, _, _ in named_query_references(path):
            readers[PACKAGE.parent.joinpath(*package.split("."), file)].add(path.relative_to(PACKAGE).as_posix())
    wrong = []
    for path in sorted(PACKAGE.rglob("*.sql")):
        if "migrations" in path.relative_to(PACKAGE).parts:
            continue
        if path.parent in procedure_folders and path.name.startswith("proc_"):
            continue
        if len(readers[path]) != 1:
            wrong.append(f"{path.relative_to(PACKAGE)} read by {sorted(readers[path]) or 'no owner module'}")
    assert wrong == []


# A statement written in Python: "SELECT ... FROM", "INSERT INTO", "UPDATE x SET", "DELETE FROM", DDL.
SQL_STATEMENT = re.compile(r"^\s*(?:SELECT\b[\s\S]*\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|"
                           r"(?:CREATE|DROP|ALTER)\s+(?:TABLE|INDEX|DATABASE|SCHEMA)\b)", re.I)


def sql_in_python(path: Path) -> list[int]:
    """Lines of ``path`` holding a string (or f-string) that is an SQL statement."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "x" for part in node.values)
        else:
            continue
        if SQL_STATEMENT.match(text):
            found.append(node.lineno)
    return sorted(set(found))  # an f-string's literal parts are strings too


def test_no_sql_statement_is_written_in_python():
    """Every statement is an owner's named query: none is a string in Python (docstrings name tables, not
    statements). The one composed statement, a scratch database's CREATE/DROP with a quoted identifier, is the
    database room's (psycopg.sql)."""
    found = [f"{path.relative_to(PACKAGE)}:{line}" for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).as_posix() != "db/queries.py" for line in sql_in_python(path)]
    assert found == []


def test_the_sql_rules_see_a_violation(tmp_path):
    assert writes_to_owned_tables("UPDATE jobs SET gone_at = now()") == {"jobs"}
    assert writes_to_owned_tables("insert into  source_versions (id) VALUES (1)") == {"source_versions"}
    assert writes_to_owned_tables("INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET x = 1") == set()
    assert writes_to_owned_tables("SELECT * FROM jobs j JOIN bodies b ON true") == set()
    path = tmp_path / "x.py"
    path.write_text('from gigflow.sql import load_queries\n\n\ndef _sql(name):\n'
                    '    return load_queries("gigflow.store", "jobs.sql")[name]\n\n\n_sql("no_such_query")\n')
    assert named_query_references(path) == [("gigflow.store", "jobs.sql", "no_such_query", 8)]
    inline = tmp_path / "inline.py"
    inline.write_text('def f(conn, t):\n    conn.execute("SELECT 1 FROM sources WHERE id = %s", (t,))\n'
                      '    conn.execute(f\'DROP DATABASE "{t}"\')\n    """Reads the sources table."""\n')
    assert sql_in_python(inline) == [2, 3]


# The folder rule (docs/architecture.md, "One folder rule"): on the flow, the Scrapy-named folders hold only their
# kind of component; beside it, each room owns its Scrapy glue in a module named for the component's kind.
STAGE_FOLDERS = {"spiders": "spider", "middlewares": "middleware", "pipelines": "item pipeline"}
GLUE_MODULES = {"EXTENSIONS": ("extension",), "DOWNLOADER_MIDDLEWARES": ("middleware",),
                "SPIDER_MIDDLEWARES": ("middleware",), "ITEM_PIPELINES": (), "DOWNLOAD_HANDLERS": ("download_handler",)}
GLUE_KIND = {"extension": None, "middleware": "middleware", "download_handler": None}
COMPONENT_FOLDER = {"DOWNLOADER_MIDDLEWARES": "middlewares", "SPIDER_MIDDLEWARES": "middlewares",
                    "ITEM_PIPELINES": "pipelines"}


def component_kind(tree: ast.Module) -> str | None:
    """The Scrapy component a module defines, read from its classes' methods and bases."""
    kinds = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            methods = {item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if "process_item" in methods:
                kinds.add("item pipeline")
            elif methods & {"process_request", "process_response", "process_exception", "process_spider_output"}:
                kinds.add("middleware")
            elif any(ast.unparse(base).endswith("Spider") for base in node.bases):
                kinds.add("spider")
    return kinds.pop() if len(kinds) == 1 else None


def components_named_in_settings() -> list[tuple[str, str]]:
    """(setting, dotted class path) for each of our components gigflow/settings.py names, and each download
    handler a spider names by dotted path (its custom_settings)."""
    found = []
    for node in ast.parse((PACKAGE / "settings.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict) and node.targets[0].id in GLUE_MODULES:
            setting = node.targets[0].id
            values = node.value.values if setting == "DOWNLOAD_HANDLERS" else node.value.keys
            found += [(setting, v.value) for v in values if isinstance(v, ast.Constant)
                      and isinstance(v.value, str) and v.value.startswith("gigflow.")]
    for path in sorted(PACKAGE.rglob("*.py")):
        found += [("DOWNLOAD_HANDLERS", node.value) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and node.value.startswith("gigflow.") and node.value.endswith("DownloadHandler")]
    return sorted(set(found))


def test_stage_folders_hold_only_their_kind_of_component():
    wrong = [f"{path.relative_to(PACKAGE)} is not a {kind}" for folder, kind in STAGE_FOLDERS.items()
             for path in sorted((PACKAGE / folder).glob("*.py")) if path.name != "__init__.py"
             and component_kind(ast.parse(path.read_text(encoding="utf-8"))) != kind]
    assert wrong == []
    # a room's glue module is that glue: a middleware.py defines a middleware
    wrong = [str(path.relative_to(PACKAGE)) for path in sorted(PACKAGE.rglob("middleware.py"))
             if component_kind(ast.parse(path.read_text(encoding="utf-8"))) != "middleware"]
    assert wrong == []
    assert not (PACKAGE / "extensions").exists(), "an extension lives in its room's extension.py"


def test_every_component_settings_name_sits_where_the_rule_puts_it():
    components = components_named_in_settings()
    assert {setting for setting, _ in components} >= {"EXTENSIONS", "DOWNLOADER_MIDDLEWARES", "ITEM_PIPELINES",
                                                      "DOWNLOAD_HANDLERS"}, "the settings reader is broken"
    wrong = []
    for setting, dotted in components:
        module, _, name = dotted.rpartition(".")
        path = PACKAGE.parent / (module.replace(".", "/") + ".py")
        if not path.exists() or name not in {node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                                             if isinstance(node, ast.ClassDef)}:
            wrong.append(f"{setting}: {dotted} does not exist")
        elif not (module.split(".")[1] == COMPONENT_FOLDER.get(setting)
                  or module.rsplit(".", 1)[-1] in GLUE_MODULES[setting]):
            wrong.append(f"{setting}: {dotted} is neither in its stage folder nor its room's glue module")
    assert wrong == []


def test_the_folder_rule_sees_a_violation():
    tree = ast.parse("class P:\n    def process_item(self, item):\n        return item\n")
    assert component_kind(tree) == "item pipeline"
    assert component_kind(ast.parse("def canonical_key(job):\n    return job['url']\n")) is None
    assert component_kind(ast.parse("class S(scrapy.Spider):\n    name = 's'\n")) == "spider"
