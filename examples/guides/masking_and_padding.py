"""Masking and padding: variable-length sequences padded with `pad_sequences`, an `Embedding`
with `mask_zero=True`, a custom layer that passes the mask on, and a custom mask-consuming
pooling layer. Padding then changes nothing: each sequence gives the same output padded to 6 or
to 12 steps.

Inference only, so it runs on every backend including numpy.

Run: TRIPOD_BACKEND=numpy python examples/guides/masking_and_padding.py
"""

import numpy as np

import tripod as keras
from tripod import layers, ops


class Scale(layers.Layer):
    """Multiplies by a constant; keeps the incoming mask (`supports_masking`)."""

    def __init__(self, factor, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        self.supports_masking = True

    def call(self, inputs):
        return inputs * self.factor


class MaskedMean(layers.Layer):
    """The mean over time of the steps the mask keeps."""

    def call(self, inputs, mask=None):
        if mask is None:
            return ops.mean(inputs, axis=1)
        weights = ops.expand_dims(ops.cast(mask, inputs.dtype), -1)
        return ops.sum(inputs * weights, axis=1) / ops.maximum(ops.sum(weights, axis=1), 1.0)

    def compute_mask(self, inputs, mask=None):
        return None


def build():
    """Embedding(mask_zero) -> Scale -> [LSTM, MaskedMean] -> concatenate."""
    tokens = keras.Input((None,), dtype="int32")
    embedded = Scale(2.0)(layers.Embedding(50, 8, mask_zero=True)(tokens))
    summary = layers.concatenate([layers.LSTM(4)(embedded), MaskedMean()(embedded)])
    return keras.Model(tokens, summary)


def main():
    """Return (padded batch, largest output change between the two paddings, the Embedding mask)."""
    keras.utils.set_random_seed(0)
    sequences = [[5, 9, 2], [7, 1, 4, 4, 8], [3, 11, 6, 2, 9, 1]]
    short = keras.utils.pad_sequences(sequences, padding="post")
    long = keras.utils.pad_sequences(sequences, maxlen=12, padding="post")
    model = build()
    change = float(np.max(np.abs(model.predict(short, verbose=0) - model.predict(long, verbose=0))))
    mask = ops.convert_to_numpy(layers.Embedding(50, 8, mask_zero=True).compute_mask(short))
    print(
        f"{keras.config.backend()}: padded to {short.shape} and {long.shape}; largest output change {change:.2e}"
    )
    return short, change, mask


if __name__ == "__main__":
    main()
