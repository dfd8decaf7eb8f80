"""The services import each other without a circle, and so do the API's views and serializers.

A circle makes the import order matter (a module half-initialised when its partner reads it)
and hides which module owns an idea; imports written inside functions to dodge the error are
circles all the same, so they count here. Imports for type checkers only (``if TYPE_CHECKING:``)
never run, and are left out.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULES = [*sorted((ROOT / "campaign" / "services").glob("*.py")), ROOT / "campaign" / "tasks.py"]


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _run_time_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and the nodes under it, but for the bodies of ``if TYPE_CHECKING:``."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from (n for branch in child.orelse for n in _run_time_nodes(branch))
        else:
            yield from _run_time_nodes(child)


def _imported(path: Path, names: set[str]) -> set[str]:
    """The modules of ``names`` that ``path`` imports at run time, wherever the import is written."""
    package = _module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in _run_time_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, up ``level - 1`` packages
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # from package import module
    return found & names


def _assert_no_circle(modules: list[Path]) -> None:
    names = {_module_name(path) for path in modules}
    graph = {_module_name(path): _imported(path, names) - {_module_name(path)} for path in modules}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as circle:
        raise AssertionError(f"import circle: {' -> '.join(circle.args[1])}") from None


def test_services_and_tasks_import_no_circle() -> None:
    _assert_no_circle(MODULES)


def test_the_api_packages_import_no_circle() -> None:
    """The views and serializers, one module per resource, as the services are."""
    _assert_no_circle(
        [*sorted((ROOT / "api" / "serializers").glob("*.py")), *sorted((ROOT / "api" / "views").glob("*.py"))]
    )
