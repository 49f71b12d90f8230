"""Text classification with a Transformer, in the style of the keras.io example: a token and
position embedding layer and a Transformer block written as `Layer` subclasses, trained with
`fit`, then saved to `.keras` and loaded back with the same predictions. The attention runs
unmasked, so it takes `ops.dot_product_attention` (one fused kernel on torch).

Synthetic data: a sequence is positive when token 7 appears in it.

Run: TRIPOD_BACKEND=torch python examples/guides/transformer_classification.py
"""

import os
import tempfile

import numpy as np

import tripod as keras
from tripod import layers, ops

VOCAB, LENGTH, WIDTH = 50, 20, 32


@keras.saving.register_keras_serializable(package="guide")
class TransformerBlock(layers.Layer):
    """Self-attention and a feed-forward net, each with dropout, a residual and a layer norm."""

    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim, self.num_heads, self.ff_dim, self.rate = embed_dim, num_heads, ff_dim, rate
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.norm1 = layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = layers.LayerNormalization(epsilon=1e-6)
        self.drop1, self.drop2 = layers.Dropout(rate), layers.Dropout(rate)

    def call(self, inputs, training=None):
        attended = self.drop1(self.att(inputs, inputs), training=training)
        x = self.norm1(inputs + attended)
        return self.norm2(x + self.drop2(self.ffn(x), training=training))

    def get_config(self):
        return {
            **super().get_config(),
            "embed_dim": self.embed_dim,
            "num_heads": self.num_heads,
            "ff_dim": self.ff_dim,
            "rate": self.rate,
        }


@keras.saving.register_keras_serializable(package="guide")
class TokenAndPositionEmbedding(layers.Layer):
    """A token embedding plus a learned embedding of each position."""

    def __init__(self, maxlen, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.maxlen, self.vocab_size, self.embed_dim = maxlen, vocab_size, embed_dim
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        positions = self.pos_emb(ops.arange(0, ops.shape(x)[-1], 1))
        return self.token_emb(x) + positions

    def get_config(self):
        return {
            **super().get_config(),
            "maxlen": self.maxlen,
            "vocab_size": self.vocab_size,
            "embed_dim": self.embed_dim,
        }


def data(samples, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(8, VOCAB, (samples, LENGTH)).astype("int32")
    y = rng.integers(0, 2, samples).astype("int32")
    where = rng.integers(0, LENGTH, samples)
    x[y == 1, where[y == 1]] = 7
    return x, y


def build():
    inputs = layers.Input(shape=(LENGTH,), dtype="int32")
    x = TokenAndPositionEmbedding(LENGTH, VOCAB, WIDTH)(inputs)
    x = TransformerBlock(WIDTH, 2, 32)(x)
    x = layers.GlobalAveragePooling1D()(x)
    x = layers.Dropout(0.1)(x)
    x = layers.Dense(20, activation="relu")(x)
    outputs = layers.Dense(2, activation="softmax")(x)
    return keras.Model(inputs=inputs, outputs=outputs)


def main(epochs=8):
    keras.utils.set_random_seed(0)
    (x_train, y_train), (x_val, y_val) = data(1024, 0), data(256, 1)
    model = build()
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(
        x_train, y_train, batch_size=32, epochs=epochs, validation_data=(x_val, y_val), verbose=0
    )
    path = os.path.join(tempfile.mkdtemp(), "transformer.keras")
    model.save(path)
    restored = keras.saving.load_model(path)
    np.testing.assert_allclose(
        restored.predict(x_val, verbose=0), model.predict(x_val, verbose=0), rtol=1e-5, atol=1e-6
    )
    accuracy = history.history["val_accuracy"][-1]
    print(f"validation accuracy on the {keras.config.backend()} backend: {accuracy:.3f}")
    return accuracy


if __name__ == "__main__":
    main()
