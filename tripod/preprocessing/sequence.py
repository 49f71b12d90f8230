"""`tripod.preprocessing.sequence`: the legacy `pad_sequences` (as in `tripod.utils`)."""

from tripod.training.data_utils import pad_sequences

__all__ = ["pad_sequences"]
