"""Campaign state.  The domain models arrive with the campaign-domain issue."""
