"""The package's structure in numbers, read from the source (AST only, nothing imported but the tree's own import
rules): packages, rooms, import levels, imports against the flow, cycles, the largest module and function, where
the Scrapy components sit and which module names repeat.

    .venv/bin/python bench/structure.py [REPO_ROOT]      # default: this checkout

Run it on two checkouts (main and a branch) to compare a reorganisation; the flow rules counted are each tree's
own (``tests/test_import_rules.py``)."""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections import Counter, defaultdict
from pathlib import Path

COMPONENT_SETTINGS = ("EXTENSIONS", "DOWNLOADER_MIDDLEWARES", "SPIDER_MIDDLEWARES", "ITEM_PIPELINES",
                      "DOWNLOAD_HANDLERS")
GLUE_NAMES = {"extension.py", "middleware.py", "download_handler.py"}  # one per room by rule: the room says whose
STAGE_FOLDERS = {"spiders": "spider", "middlewares": "downloader middleware", "pipelines": "item pipeline"}


def load_rules(root: Path):
    spec = importlib.util.spec_from_file_location("import_rules_of_tree", root / "tests" / "test_import_rules.py")
    rules = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rules)
    return rules


def sccs(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative enough for a few hundred nodes)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            found.append(component)

    for node in sorted(set(edges) | {n for targets in edges.values() for n in targets}):
        if node not in index:
            visit(node)
    return found


def levels(edges: dict[str, set[str]]) -> int:
    """Layers of the dependency graph: the longest import chain, counting each cycle as one node."""
    component_of = {node: i for i, comp in enumerate(sccs(edges)) for node in comp}
    condensed = defaultdict(set)
    for node, targets in edges.items():
        for target in targets:
            if component_of[node] != component_of[target]:
                condensed[component_of[node]].add(component_of[target])
    depth: dict[int, int] = {}

    def height(c):
        if c not in depth:
            depth[c] = 1 + max((height(n) for n in condensed.get(c, ())), default=0)
        return depth[c]

    return max((height(c) for c in set(component_of.values())), default=0)


def component_paths(package: Path) -> dict[str, list[str]]:
    """{setting: [dotted class path]} from gigflow/settings.py, plus handler paths named as module constants."""
    found = defaultdict(list)
    for node in ast.parse((package / "settings.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            name = getattr(node.targets[0], "id", "")
            if name in COMPONENT_SETTINGS:
                found[name] += [v.value for v in (node.value.keys if name != "DOWNLOAD_HANDLERS" else node.value.values)
                                if isinstance(v, ast.Constant) and isinstance(v.value, str)
                                and v.value.startswith("gigflow.")]  # Scrapy's own, switched off, are not ours
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("gigflow.")
                    and node.value.endswith("DownloadHandler") and node.value not in found["DOWNLOAD_HANDLERS"]):
                found["DOWNLOAD_HANDLERS"].append(node.value)
    return found


def stage_kind(tree: ast.Module) -> str | None:
    """What Scrapy component a module defines, read from its classes' methods and bases."""
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        methods = {item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
        bases = {ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases}
        if "process_item" in methods:
            return "item pipeline"
        if methods & {"process_request", "process_response", "process_exception"}:
            return "downloader middleware"
        if any(base.endswith("Spider") for base in bases) or node.name.endswith("Spider"):
            return "spider"
    return None


def measure(root: Path) -> dict:
    package = root / "gigflow"
    rules = load_rules(root)
    rules.PACKAGE = package
    paths = sorted(package.rglob("*.py"))
    graph = {rules.module_name(path): rules.imports_of(path) for path in paths}
    room_edges = rules.room_edges(graph)
    module_edges = {m: {n for n, _ in imported if n in graph} - {m} for m, imported in graph.items()}
    module_edges = {m: {n for n in targets if not m.startswith(n + ".")} for m, targets in module_edges.items()}
    against = [f"{m} -> {n}" for m, imported in graph.items() for n, _ in imported
               if n.startswith("gigflow.") and rules.unit(n) in rules.AGAINST_THE_FLOW.get(rules.unit(m), ())]
    largest_module, largest_function = ("", 0), ("", 0)
    not_their_kind = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        relative = path.relative_to(package).as_posix()
        if len(text.splitlines()) > largest_module[1]:
            largest_module = (relative, len(text.splitlines()))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                if size > largest_function[1]:
                    largest_function = (f"{relative}:{node.name}", size)
        folder = relative.split("/")[0]
        if folder in STAGE_FOLDERS and path.name != "__init__.py" and stage_kind(tree) != STAGE_FOLDERS[folder]:
            not_their_kind.append(relative)
    components = component_paths(package)
    component_folders = {setting: sorted({".".join(p.split(".")[1:-2]) for p in dotted})
                         for setting, dotted in components.items()}
    names = Counter(path.name for path in paths if path.name != "__init__.py")
    return {
        "packages": sum(1 for p in paths if p.name == "__init__.py"),
        "modules": len(paths),
        "rooms (top-level packages and modules)": len({rules.unit(m) for m in graph}),
        "room import levels": levels(room_edges),
        "module import levels": levels(module_edges),
        "imports against the flow": len(against),
        "room cycles": sum(1 for c in sccs(room_edges) if len(c) > 1),
        "module cycles": sum(1 for c in sccs(module_edges) if len(c) > 1),
        "largest module": f"{largest_module[0]} ({largest_module[1]} lines)",
        "largest function": f"{largest_function[0]} ({largest_function[1]} lines)",
        "stage-folder modules not of the folder's kind": not_their_kind,
        **{f"{setting} folders": f"{len(components[setting])} in {len(folders)}: {', '.join(folders)}"
           for setting, folders in sorted(component_folders.items())},
        "module names used more than once": sorted(f"{name} x{count}" for name, count in names.items()
                                                   if count > 1 and name not in GLUE_NAMES),
        "rooms' Scrapy glue modules": sorted(f"{name} x{count}" for name, count in names.items() if name in GLUE_NAMES),
    }


def main() -> None:
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    for key, value in measure(root).items():
        print(f"{key}: {value if not isinstance(value, list) else f'{len(value)}: ' + ', '.join(value)}")


if __name__ == "__main__":
    main()
