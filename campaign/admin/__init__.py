"""The umpire's back office.

Orders of battle are edited top-down (campaign → sides; force → battlegroups →
battalions → stands), each level linking to the next because the admin cannot
nest inlines.  Umpire operations are admin actions that call the same services
as the API; a refused operation becomes an error message naming the field.
Editing or deleting through a change form is the umpire's manual correction,
written by the corrections service: on the campaign lock, versioned and on the
timeline with before and after.  What only services write (roll records, events,
activation spends, night operations, reports and orders) is only ever viewed.

A module per part of the campaign; Django's autodiscovery imports only this package, so it
imports each module, whose pages register themselves as they load.
"""

from campaign.admin import audit, campaigns, days, forces, members, night, sync

__all__ = ["audit", "campaigns", "days", "forces", "members", "night", "sync"]
