"""Writes.  Each service is one atomic operation named ``<entity>_<verb>``."""
