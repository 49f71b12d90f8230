"""Attention layers: Attention, AdditiveAttention, MultiHeadAttention, GroupedQueryAttention."""

from tripod.layers.attention.additive_attention import AdditiveAttention
from tripod.layers.attention.attention import Attention
from tripod.layers.attention.grouped_query_attention import (
    GroupedQueryAttention,
    GroupQueryAttention,
)
from tripod.layers.attention.multi_head_attention import MultiHeadAttention

__all__ = [
    "AdditiveAttention",
    "Attention",
    "GroupQueryAttention",
    "GroupedQueryAttention",
    "MultiHeadAttention",
]
