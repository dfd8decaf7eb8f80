"""The developer's stack: ``make run``, ``make test`` and ``make bench`` on real PostgreSQL and
Redis with no setup (``launcher``), and the web app's build and typed client (``frontend_build``).

Imports no Django: it starts before any settings exist.
"""
