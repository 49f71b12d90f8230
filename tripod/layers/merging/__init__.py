"""merging layers."""

__all__ = []
