"""rnn layers."""

__all__ = []
