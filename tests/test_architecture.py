"""docs/ARCHITECTURE.md's layer rule, checked on the source: no upward or sideways import, no
import cycle between modules, no private name (``_x``) used across modules."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cfrviz"
#: ARCHITECTURE's diagram, bottom to top: a group imports only groups of lower layers (and
#: itself). The root ``cfrviz`` imports nothing statically (its exports are lazy).
LAYERS = (("cfrviz",), ("core",), ("games",), ("engine",), ("solvers",),
          ("analysis", "play", "io"), ("views",), ("widgets", "exercises"),
          ("check", "jupyter_hooks"), ("warm",))
LAYER = {group: level for level, groups in enumerate(LAYERS) for group in groups}
#: reference/ sits beside the layers: it imports core and games; only these read it.
REFERENCE_IMPORTS, REFERENCE_READERS = {"core", "games"}, {"exercises", "analysis.sampling"}
#: The widget libraries belong to widgets/ and the rows above it.  Below it only views.saved
#: names ipywidgets (inside its functions: the display formatter marking cfrviz's outputs).
WIDGET_LIBRARIES, WIDGET_LIBRARY_READERS = {"anywidget", "ipywidgets", "traitlets"}, \
    {"cfrviz.views.saved"}
PATHS = {".".join(("cfrviz", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
    ".__init__"): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in PATHS.items()}


def _root_names() -> dict[str, str]:
    """The root's lazy exports (its ``_MODULES``): public name -> the module defining it."""
    table = next(node.value for node in TREES["cfrviz"].body if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", None) == "_MODULES" for t in node.targets))
    return {name: f"cfrviz.{module}" for module, names in ast.literal_eval(table).items()
            for name in names}


ROOT_NAMES = _root_names()
#: Calls that import the module their string argument names.
DYNAMIC = {"import_module", "__import__"}


def _resolve(module: str, attributes: list[str]) -> tuple[str, str | None]:
    """(module reached, the name read from it or None) for ``module.a.b...``: submodules as
    far as they go, then the root's lazy export (``cfrviz.solve`` is solvers' ``solve``)."""
    for attribute in attributes:
        if f"{module}.{attribute}" in PATHS:
            module = f"{module}.{attribute}"
        elif module == "cfrviz" and attribute in ROOT_NAMES:
            return ROOT_NAMES[attribute], attribute
        else:
            return module, attribute
    return module, None


def _absolute(package: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <level dots><module> import`` in ``package``."""
    base = package.split(".")[: package.count(".") + 2 - level] if level else []
    return ".".join([*base, *filter(None, [module])])


def _chains(tree: ast.AST, bound: dict[str, str]):
    """(module, name, line) for each ``local.a.b`` whose ``local`` names a cfrviz module."""
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            attributes, value = [], node
            while isinstance(value, ast.Attribute):
                attributes.insert(0, value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in bound:
                yield *_resolve(bound[value.id], attributes), node.lineno


def imports(name: str):
    """(module imported, name taken from it or None, local name, line) per cfrviz import,
    lazy ones included, and per module reached without an import statement: a name of the
    lazy root (``from cfrviz import solve``), an attribute chain (``cfrviz.solvers.driver``,
    ``solvers.driver._x``), a module named to ``importlib.import_module``."""
    package = name if PATHS[name].name == "__init__.py" else name.rpartition(".")[0]
    bound: dict[str, str] = {}
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "cfrviz":
                    bound[a.asname or "cfrviz"] = a.name if a.asname else "cfrviz"
                    yield a.name, None, a.asname, node.lineno
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(package, node.level, node.module)
            for a in node.names if source.split(".")[0] == "cfrviz" else ():
                full, local = f"{source}.{a.name}", a.asname or a.name
                if full in PATHS:
                    bound[local] = full
                    yield full, None, local, node.lineno
                else:
                    yield *_resolve(source, [a.name]), local, node.lineno
        elif isinstance(node, ast.Call) and name != "cfrviz" and \
                getattr(node.func, "attr", getattr(node.func, "id", None)) in DYNAMIC:
            word = next((a.value for a in node.args[:1] if isinstance(a, ast.Constant)
                         and isinstance(a.value, str)), "")
            dots = len(word) - len(word.lstrip("."))
            target = _absolute(package, dots, word[dots:]) if dots else word
            if target.split(".")[0] == "cfrviz":
                yield *_resolve("cfrviz", target.split(".")[1:]), None, node.lineno
    for target, item, line in _chains(TREES[name], bound):
        yield target, item, None, line


def allowed(importer: str, imported: str) -> bool:
    high, low = (m.split(".")[1] if "." in m else "cfrviz" for m in (importer, imported))
    if low == "reference" != high:
        return high in REFERENCE_READERS or importer[7:] in REFERENCE_READERS
    if high == "reference" != low:
        return low in REFERENCE_IMPORTS
    return low == high or LAYER[low] < LAYER[high]


def private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def test_every_import_goes_down_the_layers():
    wrong = [f"{name}:{line} imports {target}" for name in TREES
             for target, _, _, line in imports(name) if not allowed(name, target)]
    assert not wrong, "\n".join(wrong)


def test_no_name_private_to_one_module_is_used_in_another():
    wrong = []
    for name, tree in TREES.items():
        found = list(imports(name))
        wrong += [f"{name}:{line} imports {item} from {source}"
                  for source, item, _, line in found if private(item)]
        modules = {local for _, item, local, _ in found if item is None and local}
        wrong += [f"{name}:{node.lineno} reads {node.value.id}.{node.attr}"
                  for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                  and isinstance(node.value, ast.Name) and node.value.id in modules
                  and private(node.attr)]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    graph = {name: sorted({target for target, *_ in imports(name)}) for name in TREES}
    done: set[str] = set()

    def visit(name, path):  # depth first: a module met again on the current path closes a cycle
        assert name not in path, f"import cycle: {' -> '.join(path[path.index(name):] + [name])}"
        if name not in done:
            for target in graph[name]:
                visit(target, [*path, name])
            done.add(name)

    for name in graph:
        visit(name, [])


def test_widget_libraries_are_imported_from_the_widgets_row_up():
    """views/ draws figures and leaves the widgets (anywidget, the FigureWidget) to widgets/."""
    wrong = []
    for name, tree in TREES.items():
        group = name.split(".")[1] if "." in name else "cfrviz"
        if LAYER.get(group, 0) >= LAYER["widgets"] or name in WIDGET_LIBRARY_READERS:
            continue
        for node in ast.walk(tree):
            found = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            wrong += [f"{name}:{node.lineno} imports {module}" for module in found
                      if module.split(".")[0] in WIDGET_LIBRARIES]
    assert not wrong, "\n".join(wrong)


#: Ways round an import statement (issue 31 item 5), each of which the rules above must see.
BACK_DOORS = {
    "cfrviz.games.probe_root": ("from cfrviz import solve", "imports cfrviz.solvers"),
    "cfrviz.games.probe_up": ("from .. import explore", "imports cfrviz.widgets"),
    "cfrviz.core.probe_chain": ("import cfrviz\nf = cfrviz.widgets.explore",
                                "imports cfrviz.widgets"),
    "cfrviz.engine.probe_dynamic": ("import importlib\nm = importlib.import_module('cfrviz.views')",
                                    "imports cfrviz.views"),
    "cfrviz.views.probe_private": ("from .. import solvers\nf = solvers.driver._same_game",
                                   "imports _same_game from cfrviz.solvers.driver"),
}


def test_the_rules_see_through_the_back_doors(monkeypatch):
    for name, (source, _) in BACK_DOORS.items():
        monkeypatch.setitem(TREES, name, ast.parse(source))
        monkeypatch.setitem(PATHS, name, PACKAGE / f"{name.replace('.', '/')}.py")
    found = []
    for check in (test_every_import_goes_down_the_layers,
                  test_no_name_private_to_one_module_is_used_in_another):
        try:
            check()
        except AssertionError as error:
            found.append(str(error))
    for name, (_, said) in BACK_DOORS.items():
        assert any(f"{name}:2 {said}" in text or f"{name}:1 {said}" in text
                   for text in found), name
