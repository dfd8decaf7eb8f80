# Sectors and links (the campaign map); free-text places become sectors.

import django.db.models.deletion
from django.db import migrations, models
from django.utils.text import slugify


def _place(Sector, sectors, campaign_id, name, used_keys):
    """The sector named ``name`` in the campaign: made (unplaced) the first time it is met."""
    name = name.strip()[:100]
    found = sectors.get((campaign_id, name))
    if found is None:
        base = slugify(name)[:50] or "sector"
        key, n = base, 1
        while (campaign_id, key) in used_keys:
            n += 1
            key = f"{base}-{n}"
        used_keys.add((campaign_id, key))
        found = sectors[campaign_id, name] = Sector.objects.create(
            campaign_id=campaign_id, key=key, name=name
        )
    return found


def places_from_names(apps, schema_editor):
    """Free-text places become sectors: a battle's sector, a force's C Ops, and its FUP when
    it stood apart from C Ops (an FUP with its C Ops is an empty fup_sector now)."""
    Sector = apps.get_model("campaign", "Sector")
    Battle = apps.get_model("campaign", "Battle")
    Force = apps.get_model("campaign", "Force")
    sectors, used_keys = {}, set()
    for battle in Battle.objects.only("campaign_id", "sector"):
        battle.sector_place = _place(
            Sector, sectors, battle.campaign_id, battle.sector or "Unnamed table", used_keys
        )
        battle.save(update_fields=["sector_place"])
    for force in Force.objects.exclude(cops_location="", fup_location=""):
        if force.cops_location.strip():
            force.sector = _place(Sector, sectors, force.campaign_id, force.cops_location, used_keys)
        if force.fup_location.strip() and not force.fup_with_cops:
            force.fup_sector = _place(Sector, sectors, force.campaign_id, force.fup_location, used_keys)
        force.save(update_fields=["sector", "fup_sector"])


def names_from_places(apps, schema_editor):
    Battle = apps.get_model("campaign", "Battle")
    Force = apps.get_model("campaign", "Force")
    for battle in Battle.objects.select_related("sector_place"):
        battle.sector = battle.sector_place.name
        battle.save(update_fields=["sector"])
    for force in Force.objects.select_related("sector", "fup_sector"):
        force.cops_location = force.sector.name if force.sector else ""
        force.fup_location = force.fup_sector.name if force.fup_sector else force.cops_location
        force.fup_with_cops = force.fup_sector is None
        force.save(update_fields=["cops_location", "fup_location", "fup_with_cops"])


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0015_event_verbs_webhooks"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="victory",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="the pack's victory conditions (docs/scenario-format.md)",
            ),
        ),
        migrations.CreateModel(
            name="Sector",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "key",
                    models.SlugField(
                        help_text="the pack's name for it, unique in the campaign", max_length=60
                    ),
                ),
                ("name", models.CharField(max_length=100)),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("town", "Town"),
                            ("port", "Port"),
                            ("airfield", "Airfield"),
                            ("beach", "Beach"),
                            ("drop_zone", "Drop zone"),
                            ("junction", "Junction"),
                            ("open", "Open ground"),
                        ],
                        default="open",
                        max_length=10,
                    ),
                ),
                (
                    "terrain",
                    models.CharField(
                        choices=[
                            ("Constricted Terrain", "Constricted Terrain"),
                            ("Open Terrain", "Open Terrain"),
                            ("Wide Open Terrain", "Wide Open Terrain"),
                        ],
                        blank=True,
                        help_text="the 1943 set-up proximity table's row for battles fought here; blank: the umpire says",
                        max_length=20,
                    ),
                ),
                ("victory_points", models.PositiveSmallIntegerField(default=0)),
                (
                    "x",
                    models.FloatField(
                        blank=True, help_text="scenario coordinates (0..1000), for drawing", null=True
                    ),
                ),
                ("y", models.FloatField(blank=True, null=True)),
                (
                    "geometry",
                    models.JSONField(
                        blank=True, help_text="GeoJSON geometry, when the pack has real geography", null=True
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sectors",
                        to="campaign.campaign",
                    ),
                ),
                (
                    "owner",
                    models.ForeignKey(
                        blank=True,
                        help_text="empty: contested (nobody holds it)",
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="sectors_held",
                        to="campaign.side",
                    ),
                ),
                (
                    "supply_source_for",
                    models.ManyToManyField(
                        blank=True,
                        help_text="the sides this sector supplies (its source)",
                        related_name="supply_sources",
                        to="campaign.side",
                    ),
                ),
            ],
            options={
                "ordering": ["campaign", "name"],
            },
        ),
        migrations.CreateModel(
            name="SectorLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("road", "Road"), ("track", "Track"), ("none", "Cross-country")],
                        default="road",
                        max_length=5,
                    ),
                ),
                (
                    "a",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="links_as_a",
                        to="campaign.sector",
                    ),
                ),
                (
                    "b",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="links_as_b",
                        to="campaign.sector",
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sector_links",
                        to="campaign.campaign",
                    ),
                ),
            ],
            options={
                "ordering": ["campaign", "a", "b"],
            },
        ),
        migrations.AddConstraint(
            model_name="sector",
            constraint=models.UniqueConstraint(
                fields=("campaign", "key"), name="sector_key_unique_in_campaign"
            ),
        ),
        migrations.AddConstraint(
            model_name="sector",
            constraint=models.UniqueConstraint(
                fields=("campaign", "name"), name="sector_name_unique_in_campaign"
            ),
        ),
        migrations.AddConstraint(
            model_name="sector",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("x__isnull", True), ("y__isnull", True)),
                    models.Q(("x__isnull", False), ("y__isnull", False)),
                    _connector="OR",
                ),
                name="sector_position_has_x_and_y",
            ),
        ),
        migrations.AddConstraint(
            model_name="sectorlink",
            constraint=models.UniqueConstraint(fields=("a", "b"), name="one_link_per_sector_pair"),
        ),
        migrations.AddConstraint(
            model_name="sectorlink",
            constraint=models.CheckConstraint(
                condition=models.Q(("a__lt", models.F("b"))), name="sector_link_lower_id_first"
            ),
        ),
        migrations.AddField(
            model_name="battalion",
            name="sector",
            field=models.ForeignKey(
                blank=True,
                help_text="where it stands; empty: off the map (reserves are)",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="battalions",
                to="campaign.sector",
            ),
        ),
        migrations.AddField(
            model_name="force",
            name="fup_sector",
            field=models.ForeignKey(
                blank=True,
                help_text="its forming-up point when apart from its C Ops; empty: with its C Ops",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="forming_up_forces",
                to="campaign.sector",
            ),
        ),
        migrations.AddField(
            model_name="force",
            name="sector",
            field=models.ForeignKey(
                blank=True,
                help_text="where its C Ops (divisional HQ) stands; empty: off the map",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="forces",
                to="campaign.sector",
            ),
        ),
        migrations.AddField(
            model_name="battle",
            name="winner",
            field=models.ForeignKey(
                blank=True,
                help_text="from its report; empty: not reported, or nobody won",
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="battles_won",
                to="campaign.side",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="verb",
            field=models.CharField(
                choices=[
                    ("campaign.created", "Campaign Created"),
                    ("campaign.started", "Campaign Started"),
                    ("day.dawned", "Day Dawned"),
                    ("segment.advanced", "Segment Advanced"),
                    ("force.deployed", "Force Deployed"),
                    ("reinforcement.scheduled", "Reinforcement Scheduled"),
                    ("arrival.due", "Arrival Due"),
                    ("activation.spent", "Activation Spent"),
                    ("battle.created", "Battle Created"),
                    ("battle.set_up", "Battle Set Up"),
                    ("battle.reported", "Battle Reported"),
                    ("battle.closed", "Battle Closed"),
                    ("roll.overridden", "Roll Overridden"),
                    ("campaign.imported", "Campaign Imported"),
                    ("night.started", "Night Phase Started"),
                    ("night.done", "Night Phase Done"),
                    ("night.order_queued", "Night Order Queued"),
                    ("arrivals.started", "Arrivals Started"),
                    ("arrivals.resolved", "Arrivals Resolved"),
                    ("operation.failed", "Operation Failed"),
                    ("umpire.reminded", "Umpire Reminded"),
                    ("admin.corrected", "Admin Corrected"),
                    ("admin.deleted", "Admin Deleted"),
                    ("api_key.created", "API key created"),
                    ("api_key.revoked", "API key revoked"),
                    ("webhook.subscribed", "Webhook subscribed"),
                    ("webhook.updated", "Webhook changed"),
                    ("webhook.unsubscribed", "Webhook unsubscribed"),
                    ("webhook.pinged", "Webhook sent a test event"),
                    ("force.moved", "Force moved"),
                    ("battalion.moved", "Battalion moved"),
                    ("sector.control_changed", "Sector changed hands"),
                ],
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="battle",
            name="sector_place",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.RESTRICT,
                related_name="+",
                to="campaign.sector",
            ),
        ),
        migrations.RunPython(places_from_names, names_from_places),
        migrations.RemoveField(
            model_name="force",
            name="cops_location",
        ),
        migrations.RemoveField(
            model_name="force",
            name="fup_location",
        ),
        migrations.RemoveField(
            model_name="force",
            name="fup_with_cops",
        ),
        # Blank allowed first, so undoing the removal can add the column back to existing rows.
        migrations.AlterField(
            model_name="battle",
            name="sector",
            field=models.CharField(blank=True, help_text="table or sector name", max_length=100),
        ),
        migrations.RemoveField(
            model_name="battle",
            name="sector",
        ),
        migrations.RenameField(
            model_name="battle",
            old_name="sector_place",
            new_name="sector",
        ),
        migrations.AlterField(
            model_name="battle",
            name="sector",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.RESTRICT, related_name="battles", to="campaign.sector"
            ),
        ),
        migrations.AlterModelOptions(
            name="battle",
            options={"ordering": ["campaign", "day", "sector__name", "id"]},
        ),
    ]
