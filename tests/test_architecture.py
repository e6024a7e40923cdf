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
#: reference/ sits beside the layers: it reads core and games; only these groups read it.
REFERENCE = {"imports": {"core", "games"}, "read_by": {"exercises", "analysis.sampling"}}
LAYER = {group: level for level, groups in enumerate(LAYERS) for group in groups}


def _modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("cfrviz", *path.relative_to(PACKAGE).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return found


MODULES = _modules()


def _imports(name: str, tree: ast.Module):
    """(module imported, name taken from it or None, line) for every cfrviz import, lazy ones
    included."""
    package = name if (PACKAGE / name[7:].replace(".", "/") / "__init__.py").exists() else \
        name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None, node.lineno) for alias in node.names
                        if alias.name.split(".")[0] == "cfrviz")
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level \
                else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            if source.split(".")[0] != "cfrviz":
                continue
            for alias in node.names:
                module = f"{source}.{alias.name}"
                yield (module, None, node.lineno) if module in MODULES else \
                    (source, alias.name, node.lineno)


def _group(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "cfrviz"


def _allowed(importer: str, imported: str) -> bool:
    low, high = _group(imported), _group(importer)
    if low == high:
        return True
    if low == "reference":
        return high in REFERENCE["read_by"] or importer[7:] in REFERENCE["read_by"]
    if high == "reference":
        return low in REFERENCE["imports"]
    return LAYER[low] < LAYER[high]


def test_every_import_goes_down_the_layers():
    wrong = [f"{name}:{line} imports {target}" for name, tree in MODULES.items()
             for target, _, line in _imports(name, tree) if not _allowed(name, target)]
    assert not wrong, "\n".join(wrong)


def test_no_name_private_to_one_module_is_used_in_another():
    wrong = []
    for name, tree in MODULES.items():
        modules = {}  # local names bound to cfrviz modules
        for target, item, line in _imports(name, tree):
            if item is not None and item.startswith("_") and not item.startswith("__"):
                wrong.append(f"{name}:{line} imports {item} from {target}")
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target, item, _ in _imports(name, ast.Module([node], [])):
                    if item is None:
                        modules[node.names[0].asname or target.rpartition(".")[2]] = target
        wrong += [f"{name}:{node.lineno} reads {node.value.id}.{node.attr}"
                  for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                  and isinstance(node.value, ast.Name) and node.value.id in modules
                  and node.attr.startswith("_") and not node.attr.startswith("__")]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    graph = {name: {target for target, _, _ in _imports(name, tree)}
             for name, tree in MODULES.items()}
    done: set[str] = set()

    def visit(name, path):  # depth-first; a module met again on the current path closes a cycle
        assert name not in path, f"import cycle: {' -> '.join(path[path.index(name):] + [name])}"
        if name not in done:
            for target in sorted(graph[name]):
                visit(target, [*path, name])
            done.add(name)

    for name in sorted(graph):
        visit(name, [])
