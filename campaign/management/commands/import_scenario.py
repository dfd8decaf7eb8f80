from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.scenarios import pack_read
from campaign.services.audit import SYSTEM
from campaign.services.errors import DomainError
from campaign.services.scenario import actor_by_username, scenario_import


class Command(BaseCommand):
    help = (
        "Import a scenario pack or a campaign export (YAML or JSON, see docs/scenario-format.md). "
        "Users the pack names are created when missing, with an unusable password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the pack: .yaml/.yml or .json")
        parser.add_argument("--username", help="who imports it (recorded on the import event)")
        parser.add_argument("--slug", help="import under this slug instead of the pack's")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            pack = pack_read(path)
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        except ValueError as exc:  # JSON and YAML parse errors both say where
            raise CommandError(f"{path}: not valid {path.suffix.lstrip('.') or 'JSON'}: {exc}") from exc
        try:
            actor = actor_by_username(options["username"]) if options["username"] else SYSTEM
            campaign = scenario_import(pack, actor, slug=options["slug"])
        except DomainError as exc:
            raise CommandError(f"{path} was not imported:\n{exc.message}") from exc
        self.stdout.write(f"imported {campaign.name} as {campaign.slug}")
