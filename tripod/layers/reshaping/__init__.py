"""reshaping layers."""

__all__ = []
