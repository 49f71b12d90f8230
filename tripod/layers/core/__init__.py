"""Core layers: Dense, EinsumDense, Embedding, Activation, Identity, Lambda, Masking, Wrapper."""

from tripod.layers.core.activation import Activation
from tripod.layers.core.dense import Dense
from tripod.layers.core.einsum_dense import EinsumDense
from tripod.layers.core.embedding import Embedding
from tripod.layers.core.identity import Identity
from tripod.layers.core.lambda_layer import Lambda
from tripod.layers.core.masking import Masking
from tripod.layers.core.reversible_embedding import ReversibleEmbedding
from tripod.layers.core.wrapper import Wrapper

__all__ = [
    "Activation",
    "Dense",
    "EinsumDense",
    "Embedding",
    "Identity",
    "Lambda",
    "Masking",
    "ReversibleEmbedding",
    "Wrapper",
]
