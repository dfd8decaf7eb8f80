from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.scenarios import pack_dumps
from campaign.scenarios.exporting import campaign_export
from campaign.services.errors import DomainError
from campaign.services.scenario import campaign_id_by_slug


class Command(BaseCommand):
    help = "Export a whole campaign as a scenario pack: YAML for -o *.yaml/*.yml, else JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", type=Path, help="file to write (default: JSON on stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            pack = campaign_export(campaign_id_by_slug(options["slug"]))
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        output: Path | None = options["output"]
        text = pack_dumps(pack, output.suffix if output else ".json")
        if output is None:
            self.stdout.write(text, ending="")
        else:
            output.write_text(text, encoding="utf-8")
            self.stderr.write(f"wrote {options['slug']} to {output}")
