"""Build, test and client generation of the web app in ``frontend/``, for the devstack and make.

``python -m devstack.frontend_build client`` regenerates ``frontend/openapi.json``
(drf-spectacular, test settings) and ``frontend/src/api/schema.d.ts``
(openapi-typescript) from it. Imports no Django: it runs before settings exist.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
FRONTEND = ROOT / "frontend"
DIST_INDEX = FRONTEND / "dist" / "index.html"
SCHEMA_FILE = FRONTEND / "openapi.json"
TYPES_FILE = FRONTEND / "src" / "api" / "schema.d.ts"
# The vocabulary the web app's tests read (GET /api/v1/vocabulary/'s answer), written with the types.
VOCABULARY_FILE = FRONTEND / "src" / "test" / "vocabulary.json"
# What a build is made from: a change to any of these makes dist/ stale.
BUILD_INPUTS = ("src", "index.html", "package-lock.json", "vite.config.ts", "tsconfig.json")


class NodeMissing(RuntimeError):
    pass


def _node_command(*command: str) -> list[str]:
    """``npm`` or ``npx`` with its arguments, found on the PATH."""
    executable = shutil.which(command[0])
    if executable is None:
        raise NodeMissing(f"{command[0]} is missing: the web app (frontend/) needs Node.js 20.19 or later")
    return [executable, *command[1:]]


def _node_tool(*command: str, check: bool = True) -> int:
    """Runs ``npm`` or ``npx`` in frontend/; its exit status."""
    return subprocess.run(_node_command(*command), cwd=FRONTEND, check=check).returncode


def ensure_node_modules() -> None:
    """``npm ci`` when node_modules/ is missing or older than the lock file (a dependency was added)."""
    installed = FRONTEND / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < (FRONTEND / "package-lock.json").stat().st_mtime:
        _node_tool("npm", "ci", "--no-audit", "--no-fund")


def _newest_input() -> float:
    newest = 0.0
    for name in BUILD_INPUTS:
        path = FRONTEND / name
        files = path.rglob("*") if path.is_dir() else [path]
        newest = max([newest, *(f.stat().st_mtime for f in files if f.is_file() and ".test." not in f.name)])
    return newest


def build() -> None:
    """``npm run build`` unless dist/ is newer than every input (several test runs share one tree)."""
    ensure_node_modules()
    if DIST_INDEX.exists() and DIST_INDEX.stat().st_mtime >= _newest_input():
        print("      web app: dist/ is up to date", flush=True)
        return
    _node_tool("npm", "run", "build")


def unit_tests_start(output: BinaryIO) -> subprocess.Popen[bytes]:
    """Vitest, once, started in a process group of its own with its output to ``output``: it
    runs beside pytest, whose browser and worker tests leave the cores idle while they wait."""
    return subprocess.Popen(
        _node_command("npx", "--no", "vitest", "run"),
        cwd=FRONTEND,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def generate_client(schema_file: Path = SCHEMA_FILE, types_file: Path = TYPES_FILE) -> None:
    """The OpenAPI document from the code, and the client's types from the document."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "spectacular",
            "--format",
            "openapi-json",
            "--file",
            str(schema_file),
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    generate_types(schema_file, types_file)
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "shell",
            "--no-imports",
            "-c",
            f"import json; from api.vocabulary import VOCABULARY; "
            f"open({str(VOCABULARY_FILE)!r}, 'w').write(json.dumps(VOCABULARY, indent=2) + '\\n')",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )


def generate_types(schema_file: Path, types_file: Path) -> None:
    """The client's types (openapi-typescript) from an OpenAPI document."""
    ensure_node_modules()
    _node_tool("npx", "--no", "openapi-typescript", str(schema_file), "--output", str(types_file))


def main(argv: list[str]) -> int:
    commands: dict[str, Callable[[], None]] = {"client": generate_client, "build": build}
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
