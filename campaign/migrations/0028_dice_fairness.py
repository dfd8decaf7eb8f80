"""Provably fair dice: each campaign's commitment of its seed, the revealed day seeds, and
the day whose seed rolled each roll (rules_engine.fairness)."""

from typing import Any

from django.db import migrations, models

from rules_engine import fairness


def commit_every_campaign(apps: Any, schema_editor: Any) -> None:
    """Commit each campaign to its seed. Its days already over count as revealed (their rolls,
    made before day seeds, keep replaying from the campaign seed): rolls from now on use the
    seed of the first day not over, which nobody has seen."""
    campaign_model = apps.get_model("campaign", "Campaign")
    day_model = apps.get_model("campaign", "CampaignDay")
    for campaign in campaign_model.objects.all():
        length = fairness.DEFAULT_CHAIN_LENGTH
        campaign.dice_commitment = fairness.commitment(campaign.rng_seed, length)
        campaign.dice_chain_length = length
        done = list(campaign.days.filter(status="done").values_list("number", flat=True))
        campaign.dice_revealed_through = max(done, default=0)
        campaign.save(update_fields=["dice_commitment", "dice_chain_length", "dice_revealed_through"])
        for number in done:
            day_model.objects.filter(campaign=campaign, number=number).update(
                dice_seed=fairness.day_seed(campaign.rng_seed, length, number)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0027_drafts_battle_draft"),
    ]

    operations = [
        migrations.AlterField(
            model_name="campaign",
            name="rng_seed",
            field=models.CharField(
                blank=True,
                help_text="the secret master seed of the dice; empty in a pack: a fresh one",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="dice_commitment",
            field=models.CharField(
                default="",
                help_text="SHA-256 hash chain commitment of the seed, published at creation",
                max_length=64,
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="campaign",
            name="dice_chain_length",
            field=models.PositiveIntegerField(
                default=1000, help_text="links of the seed's hash chain: days it can roll"
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="dice_revealed_through",
            field=models.PositiveSmallIntegerField(
                default=0, help_text="the last day whose dice seed is revealed; rolls use the next day's"
            ),
        ),
        migrations.AddField(
            model_name="campaignday",
            name="dice_seed",
            field=models.CharField(
                blank=True, help_text="the day's dice seed, revealed after its night phase", max_length=64
            ),
        ),
        migrations.AlterField(
            model_name="rollrecord",
            name="stream",
            field=models.CharField(help_text="dice stream labels under the day's dice seed", max_length=200),
        ),
        migrations.AddField(
            model_name="rollrecord",
            name="dice_day",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="the day whose seed rolled it; empty: rolled from the campaign seed, before day seeds",
                null=True,
            ),
        ),
        migrations.RunPython(commit_every_campaign, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="rollrecord",
            index=models.Index(fields=["campaign", "dice_day"], name="campaign_ro_campaig_022048_idx"),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(("dice_commitment", ""), _negated=True),
                name="campaign_commits_to_its_dice",
            ),
        ),
    ]
