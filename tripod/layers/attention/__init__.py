"""attention layers."""

__all__ = []
