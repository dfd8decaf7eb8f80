"""Dice rolled at the table (issue 31): which set-up steps a campaign rolls at the table and who
enters them, and each roll entered so."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0032_roll_dice_audience"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="table_dice",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text='set-up steps the club rolls at the table, and who enters them: {"procedure": "umpire" or "players"} (players: the battle\'s players too)',
            ),
        ),
        migrations.AddField(
            model_name="rollrecord",
            name="at_table",
            field=models.BooleanField(
                default=False,
                help_text="rolled with physical dice at the table, its faces entered by its actor",
            ),
        ),
    ]
