"""rules_engine is pure Python: it must import where Django does not exist."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery", "campaign", "api", "config")

# Imports every rules_engine module with the forbidden packages made unimportable,
# exactly as in a Python that has no Django installed.
IMPORT_EVERYTHING = f"""
import importlib, importlib.abc, pkgutil, sys
FORBIDDEN = {FORBIDDEN!r}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in FORBIDDEN:
            raise ImportError("blocked: " + name)
        return None
sys.meta_path.insert(0, Block())
import rules_engine
names = [m.name for m in pkgutil.walk_packages(rules_engine.__path__, "rules_engine.")]
for name in names:
    if not name.endswith("__main__"):
        importlib.import_module(name)
print(len(names))
"""


@pytest.mark.process
def test_every_module_imports_without_django():
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 5


def test_no_source_file_names_a_framework_import():
    offenders = []
    for path in (ROOT / "rules_engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            offenders += [f"{path.name}: {m}" for m in modules if m.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_no_use_of_the_global_random_module():
    users = [
        path.name
        for path in (ROOT / "rules_engine").rglob("*.py")
        if any(
            isinstance(node, (ast.Import, ast.ImportFrom))
            and "random" in ([a.name for a in node.names] if isinstance(node, ast.Import) else [node.module])
            for node in ast.walk(ast.parse(path.read_text()))
        )
    ]
    assert users == []
