"""The tensorflow backend: nn ops."""
