"""The sweeper: committed work whose task was lost is sent again.

Every write that starts background work commits a row first (an operation, a webhook
delivery, a notification to e-mail) and sends its task after the commit. A task can be lost:
the broker is down at that moment, or the worker holding it is killed and the broker would
hand it out again only after its visibility timeout (an hour). Beat runs this every
``WORK_SWEEP_INTERVAL`` seconds; each kind of work says which of its rows are stale
(``operations_resend``, ``webhook_deliveries_resend`` and ``notification_mails_resend``), and
the lease and the send are the one lifecycle of ``campaign.services.background``. A second
send is harmless: each kind is guarded by its row's state.
"""

from __future__ import annotations

from datetime import datetime

from campaign.services.notifications import notification_mails_resend
from campaign.services.operations import operations_resend
from campaign.services.webhooks import webhook_deliveries_resend


def work_sweep(now: datetime) -> dict[str, list[int]]:
    """Send again the stale operations, overdue webhook deliveries and notification e-mails; the
    ids sent, by kind."""
    return {
        "operations": operations_resend(now),
        "webhook_deliveries": webhook_deliveries_resend(now),
        "notification_mails": notification_mails_resend(now),
    }
