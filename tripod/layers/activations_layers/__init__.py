"""activations_layers layers."""

__all__ = []
