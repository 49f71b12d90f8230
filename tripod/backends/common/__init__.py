"""Backend-neutral pieces every backend shares: no framework is imported here."""
