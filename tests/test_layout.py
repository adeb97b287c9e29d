"""The package shows its pipeline: guards on its layout that fail when it drifts.

- every module stays short (MAX_LINES);
- SQL text lives in workbench/store/ only (the store compiles `Filter` records);
- `import workbench` (and the wiring point, and the CLI) loads no heavy backend;
- imports point down the stages (STAGES), at module level and inside functions alike;
- the GraphStore protocol declares every public method of the graph store.
- README.md's package layout names every module.
"""
from __future__ import annotations

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
MAX_LINES = 450


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- size ----------------------------------------------------------------------------------
def test_every_module_is_at_most_450_lines():
    long = {rel(p): n for p in modules() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by what they do): {long}"


# -- SQL only in the store -----------------------------------------------------------------
SQL = re.compile(r"article_no =|starts_with|date '")


def sql_outside_store() -> list[str]:
    """Lines holding SQL text in a string of a module outside workbench/store/, and in the
    package's other text files (TOML, JS)."""
    found = []
    for path in sorted(PACKAGE.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix not in (".py", ".toml", ".js"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix != ".py":
            found += [f"{rel(path)}:{i}" for i, line in enumerate(text.splitlines(), 1) if SQL.search(line)]
            continue
        for node in ast.walk(ast.parse(text)):        # strings only: `article_no = 3` in Python is no SQL
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
                found.append(f"{rel(path)}:{node.lineno}")
    return found


def test_no_sql_text_outside_the_store():
    found = sql_outside_store()
    assert any(f.startswith("workbench/store/") for f in found), "the patterns no longer find the store's own SQL"
    outside = [f for f in found if not f.startswith("workbench/store/")]
    assert not outside, f"SQL text outside workbench/store/ (build a Filter; let the store compile it): {outside}"


# -- a light import ------------------------------------------------------------------------
HEAVY = {"torch", "lancedb", "igraph", "sentence_transformers", "polars"}


def imported(statement: str) -> set[str]:
    """The top-level packages a fresh interpreter imports to run `statement` (-X importtime)."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", statement], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip().split(".")[0] for line in run.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


@pytest.mark.parametrize("module", ["workbench", "workbench.workbench", "workbench.cli"])
def test_importing_the_package_loads_no_heavy_backend(module):
    names = imported(f"import {module}")
    assert "workbench" in names                   # the timing lines were read
    assert not names & HEAVY, f"`import {module}` imports {sorted(names & HEAVY)}: import them where they are used"


# -- imports point down the stages ----------------------------------------------------------
# The allowed order, lowest first. A module may import its own stage and any stage before it.
# Stages in one tuple are siblings: neither imports the other. The faces (ui, api, cli and the
# developer tools) open a workspace through the wiring point (workbench.py); the wiring point
# imports no face (this keeps the stage graph acyclic: a face may be handed a Workbench, and
# workbench.py knows nothing about how it is shown).
STAGES: list[tuple[str, ...]] = [
    ("core",),
    ("parse",),
    ("link",),
    ("store",),
    ("retrieve",),
    ("answer",),
    ("evaluate", "entities"),
    ("wiring",),                    # workbench/workbench.py
    ("faces",),                     # ui/ api/ dev/ cli.py cli_*.py
]
FACES = {"ui", "api", "dev"}
RANK = {stage: i for i, group in enumerate(STAGES) for stage in group}
# (importing module, imported stage) -> why it must point up; keep it empty if at all possible
EXCEPTIONS: dict[tuple[str, str], str] = {}


def stage_of(parts: tuple[str, ...]) -> str:
    """The stage of a module, from its path inside the package ('store', 'lance') -> 'store'."""
    head = parts[0]
    if len(parts) == 1:             # a top-level module
        name = head.removesuffix(".py")
        if name == "__init__":
            return "core"           # the package itself imports nothing of its own
        if name == "workbench":
            return "wiring"
        if name == "cli" or name.startswith("cli_"):
            return "faces"
        raise AssertionError(f"workbench/{head}: a top-level module of no stage -- move it into a stage "
                             "folder or give it a stage in tests/test_layout.py")
    if head in FACES:
        return "faces"
    if head in RANK:
        return head
    raise AssertionError(f"workbench/{head}/: a folder of no stage -- add it to STAGES in tests/test_layout.py")


def imported_stages(path: Path, source: str | None = None) -> list[tuple[int, str, str]]:
    """(line, module named, its stage) for every import of the package in a module, at module
    level or inside a function, relative or absolute, and every module named as a string for
    importlib ("workbench.link.zh")."""
    inner = path.relative_to(PACKAGE).parts
    package = ["workbench", *inner[:-1]]                    # the package a relative import starts from
    out = []
    for node in ast.walk(ast.parse(source if source is not None else path.read_text(encoding="utf-8"))):
        names: list[list[str]] = []
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - (node.level - 1)] if node.level else []
            mod = base + (node.module.split(".") if node.module else [])
            names = [mod + [a.name] for a in node.names] if len(mod) == 1 else [mod]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.fullmatch(r"workbench(\.\w+)+", node.value):
            names = [node.value.split(".")]
        for mod in names:
            if mod[0] != "workbench" or len(mod) < 2:
                continue
            target = PACKAGE.joinpath(*mod[1:])
            if target.is_dir():
                parts = tuple(mod[1:]) + ("__init__.py",)
            elif target.with_suffix(".py").is_file():
                parts = tuple(mod[1:-1]) + (mod[-1] + ".py",)
            elif PACKAGE.joinpath(*mod[1:-1]).with_suffix(".py").is_file():     # from .x import name
                parts = tuple(mod[1:-2]) + (mod[-2] + ".py",)
            else:
                continue            # not a module of the package (a docstring's example, a name)
            out.append((node.lineno, ".".join(mod), stage_of(parts)))
    return out


def upward(path: Path, source: str | None = None) -> list[str]:
    mine = stage_of(path.relative_to(PACKAGE).parts)
    bad = []
    for line, name, stage in imported_stages(path, source):
        if stage == mine or (rel(path), stage) in EXCEPTIONS:
            continue
        if RANK[stage] >= RANK[mine]:
            bad.append(f"{rel(path)}:{line} ({mine}) imports {name} ({stage})")
    return bad


def test_imports_point_down_the_stages():
    bad = [b for p in modules() for b in upward(p)]
    assert not bad, ("imports against the stage order " + " < ".join("/".join(g) for g in STAGES)
                     + " -- move the code down or pass the dependency in:\n" + "\n".join(bad))


def test_the_import_check_sees_upward_imports_inside_functions():
    core = PACKAGE / "core" / "records.py"
    hidden = "def f():\n    from ..ui.frames import hits\n    import workbench.store.lance\n"
    assert upward(core, hidden) == [
        "workbench/core/records.py:2 (core) imports workbench.ui.frames (faces)",
        "workbench/core/records.py:3 (core) imports workbench.store.lance (store)"]
    sibling = PACKAGE / "evaluate" / "generate.py"
    assert upward(sibling, "from ..entities.index import EntityIndex\n") == [
        "workbench/evaluate/generate.py:1 (evaluate) imports workbench.entities.index (entities)"]
    assert upward(PACKAGE / "link" / "run.py", "X = {'zh': 'workbench.retrieve.seeds'}\n") == [
        "workbench/link/run.py:1 (link) imports workbench.retrieve.seeds (retrieve)"]
    assert upward(PACKAGE / "cli.py", "from .workbench import Workbench\nfrom .ui import frames\n") == []


def test_every_exception_is_still_needed():
    used = {(rel(p), stage) for p in modules() for _, _, stage in imported_stages(p)}
    assert not set(EXCEPTIONS) - used, f"exceptions no longer needed: {sorted(set(EXCEPTIONS) - used)}"


# -- the graph store's protocol ---------------------------------------------------------------
def test_graph_store_protocol_declares_every_method_of_the_store():
    from workbench.core.protocols import GraphStore
    from workbench.store.graph import IGraphStore

    def public(cls):
        return {n: inspect.signature(f) for n, f in vars(cls).items() if callable(f) and not n.startswith("_")}
    store, declared = public(IGraphStore), public(GraphStore)
    assert not set(store) - set(declared), f"IGraphStore methods the protocol does not declare: {set(store) - set(declared)}"
    assert not set(declared) - set(store), f"declared but not implemented: {set(declared) - set(store)}"
    differ = {n for n in declared if list(declared[n].parameters) != list(store[n].parameters)}
    assert not differ, f"parameters differ between GraphStore and IGraphStore: {differ}"


# -- the README's layout ----------------------------------------------------------------------
def readme_layout() -> dict[str, str]:
    """The README's "Package layout" block: folder ('' for the package's top level) -> its text."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## Package layout", 1)[1].split("```", 2)[1]
    sections: dict[str, str] = {}
    current = None
    for line in block.splitlines():
        folder = re.match(r"  (\w+)/\s", line)
        if folder:
            current = folder.group(1)
        elif re.match(r"  \w+\.py\s", line):
            current = ""
        elif not line.startswith("   "):
            current = None                      # back outside workbench/ (notebooks/, tests/ …)
        if current is not None:
            sections[current] = sections.get(current, "") + line + "\n"
    return sections


def test_readme_layout_names_every_module():
    sections = readme_layout()
    missing = []
    for path in modules():
        parts = path.relative_to(PACKAGE).parts
        if parts[-1] == "__init__.py":
            continue
        folder = parts[0] if len(parts) > 1 else ""
        if not re.search(rf"(?<![\w/]){re.escape(parts[-1])}\b", sections.get(folder, "")):
            missing.append(rel(path))
    assert not missing, f"README.md's package layout does not name: {missing}"


def test_the_tables_script_refuses_to_overwrite_a_first_run_record():
    """`benchmarks/tables.py --write` rewrites the docs tables that follow a set's command; for the sets
    whose docs section holds their first run's tables (zh3 … zh12) that would overwrite a record:
    exit 2 with one line naming the set and the fix, and nothing written."""
    import subprocess
    import sys
    root = Path(__file__).parents[1]
    docs_path, readme_path = root / "docs" / "benchmarks.md", root / "README.md"
    docs, readme = docs_path.read_bytes(), readme_path.read_bytes()
    try:
        run = subprocess.run([sys.executable, str(root / "benchmarks" / "tables.py"), "--write", "zh, zh7"],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 2 and "--write zh7" in run.stderr and "--readme" in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
        assert docs_path.read_bytes() == docs and readme_path.read_bytes() == readme
    finally:                        # a regression must not leave the tracked files rewritten
        docs_path.write_bytes(docs)
        readme_path.write_bytes(readme)
