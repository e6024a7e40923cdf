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


def imports(name: str):
    """(module imported, name taken from it or None, local name, line) per cfrviz import,
    lazy ones included."""
    package = name if PATHS[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.Import):
            yield from ((a.name, None, a.asname, node.lineno) for a in node.names
                        if a.name.split(".")[0] == "cfrviz")
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: package.count(".") + 2 - node.level] if node.level else []
            source = ".".join([*base, *filter(None, [node.module])])
            for a in node.names if source.split(".")[0] == "cfrviz" else ():
                full = f"{source}.{a.name}"
                yield (full, None, a.asname or a.name, node.lineno) if full in PATHS else \
                    (source, a.name, a.asname or a.name, node.lineno)


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
