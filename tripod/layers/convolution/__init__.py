"""convolution layers."""

__all__ = []
