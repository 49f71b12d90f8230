"""The functional API: a graph of layers with two inputs, a shared layer and two outputs.

A ticket-triage toy: a bag of word counts and a numeric urgency feature go in; an urgency score
(regression) and a team (3-way classification) come out. Both text views pass through one shared
Dense layer. The same graph also gives a second model that returns the shared features.

Run: TRIPOD_BACKEND=jax python examples/guides/functional_api.py
"""

import numpy as np

import tripod as keras
from tripod import layers

VOCAB, TEAMS = 20, 3


def make_data(n, seed=0):
    """Word counts, a feature, and the two targets they determine."""
    rng = np.random.default_rng(seed)
    words = rng.poisson(1.0, (n, VOCAB)).astype("float32")
    feature = rng.normal(size=(n, 1)).astype("float32")
    score = (words[:, :5].sum(1, keepdims=True) * 0.2 + feature).astype("float32")
    team = np.argmax(words[:, : TEAMS * 2].reshape(n, TEAMS, 2).sum(-1), axis=1)
    return [words, feature], {"score": score, "team": keras.utils.to_categorical(team, TEAMS)}


def build_models():
    """(the two-output training model, a feature extractor over the same layers)."""
    words = keras.Input((VOCAB,), name="words")
    feature = keras.Input((1,), name="feature")
    shared = layers.Dense(16, activation="relu", name="shared_text")
    text = shared(words)
    merged = layers.concatenate([text, feature])
    score = layers.Dense(1, name="score")(merged)
    team = layers.Dense(TEAMS, name="team")(merged)
    model = keras.Model([words, feature], {"score": score, "team": team}, name="triage")
    extractor = keras.Model(model.inputs, model.get_layer("shared_text").output, name="extractor")
    return model, extractor


def main(epochs=20):
    """Train on synthetic tickets; return the first and last epoch's total loss."""
    keras.utils.set_random_seed(0)
    x, y = make_data(512)
    model, extractor = build_models()
    model.compile(
        optimizer=keras.optimizers.Adam(0.01),
        loss={"score": "mse", "team": keras.losses.CategoricalCrossentropy(from_logits=True)},
        loss_weights={"score": 1.0, "team": 0.5},
        metrics={"team": ["accuracy"]},
    )
    model.summary()
    history = model.fit(x, y, batch_size=64, epochs=epochs, verbose=0)
    features = extractor.predict(x, verbose=0)
    print(f"{keras.config.backend()}: loss {history.history['loss'][0]:.3f} -> "
          f"{history.history['loss'][-1]:.3f}; shared features {features.shape}")  # fmt: skip
    return history.history["loss"][0], history.history["loss"][-1], features.shape


if __name__ == "__main__":
    main()
