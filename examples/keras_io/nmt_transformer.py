# Written for tripod in the style of keras.io's "English-to-Spanish translation with a
# sequence-to-sequence Transformer" example
# (https://keras.io/examples/nlp/neural_machine_translation_with_transformer/).
"""A sequence-to-sequence Transformer: a `PositionalEmbedding` layer that computes a padding
mask, a `TransformerEncoder` that consumes it, and a `TransformerDecoder` with a causal mask
built from `keras.ops`, as `Layer` subclasses; encoder and decoder are functional models joined
into one, trained with teacher forcing, then used to translate greedily token by token.

Synthetic data in place of the English-Spanish pairs: a "sentence" is 3 to 7 word ids padded
with 0 and its "translation" is each word mapped through a fixed dictionary, in reverse order,
between [start] and [end] tokens.

Run: python examples/keras_io/nmt_transformer.py   (real Keras)
"""

import keras
import numpy as np
from keras import layers, ops

VOCAB = 24  # 0 pad, 1 [start], 2 [end], 3.. words
SEQ_LEN = 8
START, END = 1, 2


class TransformerEncoder(layers.Layer):
    def __init__(self, embed_dim, dense_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim, self.dense_dim, self.num_heads = embed_dim, dense_dim, num_heads
        self.attention = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential(
            [layers.Dense(dense_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm_1 = layers.LayerNormalization()
        self.layernorm_2 = layers.LayerNormalization()
        self.supports_masking = True

    def call(self, inputs, mask=None):
        padding_mask = None if mask is None else ops.cast(mask[:, None, :], dtype="int32")
        attended = self.attention(
            query=inputs, value=inputs, key=inputs, attention_mask=padding_mask
        )
        projected_input = self.layernorm_1(inputs + attended)
        return self.layernorm_2(projected_input + self.dense_proj(projected_input))

    def get_config(self):
        config = super().get_config()
        config.update(embed_dim=self.embed_dim, dense_dim=self.dense_dim, num_heads=self.num_heads)
        return config


class PositionalEmbedding(layers.Layer):
    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.token_embeddings = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.position_embeddings = layers.Embedding(input_dim=sequence_length, output_dim=embed_dim)
        self.sequence_length, self.vocab_size, self.embed_dim = (
            sequence_length,
            vocab_size,
            embed_dim,
        )

    def call(self, inputs):
        positions = ops.arange(0, ops.shape(inputs)[-1], 1)
        return self.token_embeddings(inputs) + self.position_embeddings(positions)

    def compute_mask(self, inputs, mask=None):
        return ops.not_equal(inputs, 0)

    def get_config(self):
        config = super().get_config()
        config.update(
            sequence_length=self.sequence_length,
            vocab_size=self.vocab_size,
            embed_dim=self.embed_dim,
        )
        return config


class TransformerDecoder(layers.Layer):
    def __init__(self, embed_dim, latent_dim, num_heads, **kwargs):
        super().__init__(**kwargs)
        self.embed_dim, self.latent_dim, self.num_heads = embed_dim, latent_dim, num_heads
        self.attention_1 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.attention_2 = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.dense_proj = keras.Sequential(
            [layers.Dense(latent_dim, activation="relu"), layers.Dense(embed_dim)]
        )
        self.layernorm_1 = layers.LayerNormalization()
        self.layernorm_2 = layers.LayerNormalization()
        self.layernorm_3 = layers.LayerNormalization()
        self.supports_masking = True

    def call(self, inputs, encoder_outputs, mask=None):
        causal_mask = self.causal_attention_mask(inputs)
        if mask is not None:
            padding_mask = ops.minimum(ops.cast(mask[:, None, :], dtype="int32"), causal_mask)
        else:
            padding_mask = None
        attended_1 = self.attention_1(
            query=inputs, value=inputs, key=inputs, attention_mask=causal_mask
        )
        out_1 = self.layernorm_1(inputs + attended_1)
        attended_2 = self.attention_2(
            query=out_1, value=encoder_outputs, key=encoder_outputs, attention_mask=padding_mask
        )
        out_2 = self.layernorm_2(out_1 + attended_2)
        return self.layernorm_3(out_2 + self.dense_proj(out_2))

    def causal_attention_mask(self, inputs):
        # (1, length, length), broadcast over the batch: keras.io's version tiles it to the
        # batch size with `ops.tile(mask, [batch, 1, 1])`, which JAX >= 0.7 refuses while the
        # batch size is unknown (in Keras 3 too: "parameters to jaxpr equations must have __hash__")
        sequence_length = ops.shape(inputs)[1]
        i = ops.arange(sequence_length)[:, None]
        j = ops.arange(sequence_length)
        mask = ops.cast(i >= j, dtype="int32")
        return ops.reshape(mask, (1, sequence_length, sequence_length))

    def get_config(self):
        config = super().get_config()
        config.update(
            embed_dim=self.embed_dim, latent_dim=self.latent_dim, num_heads=self.num_heads
        )
        return config


def make_pairs(n, seed=0):
    rng = np.random.default_rng(seed)
    dictionary = np.arange(VOCAB)
    dictionary[3:] = 3 + rng.permutation(VOCAB - 3)
    source = np.zeros((n, SEQ_LEN), "int64")
    target = np.zeros((n, SEQ_LEN + 1), "int64")
    for row in range(n):
        words = rng.integers(3, VOCAB, rng.integers(3, SEQ_LEN))
        source[row, : len(words)] = words
        translated = [START, *dictionary[words][::-1], END]
        target[row, : len(translated)] = translated
    return source, target


def build_transformer(embed_dim=32, latent_dim=64, num_heads=2):
    encoder_inputs = keras.Input(shape=(None,), dtype="int64", name="encoder_inputs")
    x = PositionalEmbedding(SEQ_LEN, VOCAB, embed_dim)(encoder_inputs)
    encoder_outputs = TransformerEncoder(embed_dim, latent_dim, num_heads)(x)

    decoder_inputs = keras.Input(shape=(None,), dtype="int64", name="decoder_inputs")
    encoded_seq_inputs = keras.Input(shape=(None, embed_dim), name="decoder_state_inputs")
    x = PositionalEmbedding(SEQ_LEN, VOCAB, embed_dim)(decoder_inputs)
    x = TransformerDecoder(embed_dim, latent_dim, num_heads)(x, encoded_seq_inputs)
    x = layers.Dropout(0.2)(x)
    decoder_outputs = layers.Dense(VOCAB, activation="softmax")(x)
    decoder = keras.Model([decoder_inputs, encoded_seq_inputs], decoder_outputs)

    decoder_outputs = decoder([decoder_inputs, encoder_outputs])
    return keras.Model([encoder_inputs, decoder_inputs], decoder_outputs, name="transformer")


def decode_sequence(transformer, source):
    """Greedy translation of a batch of source rows, one token at a time."""
    decoded = np.zeros((len(source), SEQ_LEN), "int64")
    decoded[:, 0] = START
    for i in range(SEQ_LEN - 1):
        predictions = transformer([ops.convert_to_tensor(source), ops.convert_to_tensor(decoded)])
        decoded[:, i + 1] = np.argmax(ops.convert_to_numpy(predictions)[:, i, :], axis=-1)
    return decoded


def main(epochs=20, n_train=2000):
    keras.utils.set_random_seed(3)
    source, target = make_pairs(n_train + 200)
    inputs = {"encoder_inputs": source, "decoder_inputs": target[:, :-1]}
    labels = target[:, 1:]
    train = ({k: v[:n_train] for k, v in inputs.items()}, labels[:n_train])
    val = ({k: v[n_train:] for k, v in inputs.items()}, labels[n_train:])

    transformer = build_transformer()
    transformer.compile(
        keras.optimizers.Adam(2e-3), loss="sparse_categorical_crossentropy", metrics=["accuracy"]
    )
    history = transformer.fit(*train, batch_size=64, epochs=epochs, validation_data=val, verbose=0)

    test_source, test_target = val[0]["encoder_inputs"][:50], target[n_train : n_train + 50]
    decoded = decode_sequence(transformer, test_source)
    exact = [list(row[: list(row).index(END) + 1]) if END in row else None for row in decoded]
    wanted = [list(row[: list(row).index(END) + 1]) for row in test_target]
    return {
        "output_shape": tuple(transformer.output_shape),
        "first_loss": history.history["loss"][0],
        "last_loss": history.history["loss"][-1],
        "val_accuracy": history.history["val_accuracy"][-1],
        "exact_translations": float(np.mean([a == b for a, b in zip(exact, wanted)])),
    }


def check(result):
    assert result["output_shape"] == (None, None, VOCAB), result
    assert result["last_loss"] < 0.5 * result["first_loss"], result
    assert result["exact_translations"] >= 0.5, result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
