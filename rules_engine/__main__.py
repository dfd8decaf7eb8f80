"""The umpire's quick tool: list the catalog, show a table, roll a procedure.

python -m rules_engine list [--system "Panzer Korps"]
python -m rules_engine show gb.barrage_delay
python -m rules_engine roll gb.barrage_delay artillery_quality=Inferior order=on-call --faces 55
python -m rules_engine roll pk.arrival leader_rating=C segments_since_first_attempt=1 --seed club-night
python -m rules_engine verify day-1-dice.json   (or - for standard input; exit 1 on any mismatch)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rules_engine import catalog
from rules_engine.dice import DiceError, DiceSource, ScriptedDice, SeededDice
from rules_engine.inputs import InputError, build_inputs
from rules_engine.registry import CatalogError
from rules_engine.results import RuleSystem, to_jsonable
from rules_engine.verify import DocumentError, report_lines, verify


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False))


def _list(args: argparse.Namespace) -> int:
    system = RuleSystem(args.system) if args.system else None
    for entry in catalog.procedures(system):
        flag = " (optional)" if entry.optional else ""
        print(f"procedure  {entry.key:<40} {entry.title}{flag} — {entry.rule.text()}")
    for table in catalog.tables(system):
        flag = " (optional)" if table.optional else ""
        print(f"table      {table.key:<40} {table.title}{flag} — {table.rule.text()}")
    return 0


def _show(args: argparse.Namespace) -> int:
    """Every entry under the key: a procedure and its table often share one."""
    shown = [catalog.describe_procedure(p) for p in catalog.procedures() if p.key == args.key]
    shown += [catalog.describe_table(t, with_data=True) for t in catalog.tables() if t.key == args.key]
    if not shown:
        raise CatalogError(f"nothing named {args.key!r} in the catalog")
    _print_json(shown)
    return 0


def _roll(args: argparse.Namespace) -> int:
    entry = catalog.get_procedure(args.key)
    values = {}
    for pair in args.inputs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise InputError(pair, "inputs are written field=value")
        values[name] = value
    if entry.input_type is None:
        raise CatalogError(f"procedure {args.key!r} takes no inputs this tool can build")
    inputs = build_inputs(entry.input_type, values)
    if not entry.rolls:
        _print_json(to_jsonable(entry.func(inputs)))
        return 0
    dice: DiceSource = (
        ScriptedDice(int(face) for face in args.faces.split(","))
        if args.faces
        else SeededDice(args.seed, *filter(None, args.stream.split("/")))
    )
    result = entry.func(inputs, dice)
    for roll in result.roll_results():
        print(roll.line())
    _print_json(result.to_dict())
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Replay a revealed day's roll log (``GET .../days/{n}/dice/``): 1 on any mismatch."""
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        document = json.loads(text)
    # ValueError: not JSON, not UTF-8, or a number of more digits than Python reads;
    # RecursionError: nested deeper than the parser goes.
    except (OSError, ValueError, RecursionError) as exc:
        raise DocumentError(f"cannot read {args.file}: {exc}") from exc
    report = verify(document)
    for line in report_lines(report):
        print(line)
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m rules_engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="every procedure and table")
    listing.add_argument("--system", choices=[s.value for s in RuleSystem])
    listing.set_defaults(run=_list)
    show = commands.add_parser("show", help="a procedure's inputs or a table's data")
    show.add_argument("key")
    show.set_defaults(run=_show)
    rolling = commands.add_parser("roll", help="roll a procedure with field=value inputs")
    rolling.add_argument("key")
    rolling.add_argument("inputs", nargs="*", metavar="field=value")
    rolling.add_argument("--seed", default="umpire", help="seed of the dice stream")
    rolling.add_argument("--stream", default="cli", help="stream labels, separated by /")
    rolling.add_argument("--faces", help="comma-separated faces to use instead of rolling")
    rolling.set_defaults(run=_roll)
    verifying = commands.add_parser("verify", help="replay a revealed day's rolls from its seed")
    verifying.add_argument("file", help="the day's dice document (JSON), or - for standard input")
    verifying.set_defaults(run=_verify)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except DocumentError as exc:
        print(f"error: not a dice document: {exc}", file=sys.stderr)
        return 2
    except (CatalogError, InputError, DiceError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
