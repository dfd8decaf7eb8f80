"""Each roll names the audience whose chain's day seed rolled it (rules notes C-22); rolls made
before audiences existed were rolled with the one chain there was, the public's."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0031_public_ids_orders_spends_operations"),
    ]

    operations = [
        migrations.AddField(
            model_name="rollrecord",
            name="dice_audience",
            field=models.CharField(
                default="public",
                help_text="whose chain's day seed rolled it (campaign.access.dice_audience): exactly its readers",
                max_length=240,
            ),
        ),
    ]
