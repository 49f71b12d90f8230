"""Core layers: Dense, EinsumDense, Embedding, Activation, Identity, Lambda, Masking, Wrapper."""

from tripod.layers.core.dense import Dense

__all__ = ["Dense"]
