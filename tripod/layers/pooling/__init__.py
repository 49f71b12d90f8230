"""pooling layers."""

__all__ = []
