# Written for tripod in the style of keras.io's "Image classification with Vision Transformer"
# example (https://keras.io/examples/vision/image_classification_with_vision_transformer/).
"""A Vision Transformer: a data-augmentation `Sequential` (Normalization adapted on the training
images, Resizing, RandomContrast, RandomRotation, RandomZoom; no flip, which would swap classes here), a `Patches` layer over
`keras.ops.image.extract_patches`, a `PatchEncoder` adding a learned position embedding,
Transformer blocks of LayerNormalization / MultiHeadAttention / Add and an MLP, trained with
AdamW and top-1 / top-3 accuracy.

Synthetic data in place of CIFAR-100: 12x12 RGB images of 4 classes, a bright square in one of
the four quadrants, over noise.

Run: python examples/keras_io/vision_transformer.py   (real Keras)
"""

import keras
import numpy as np
from keras import layers, ops

NUM_CLASSES = 4
IMAGE_SIZE = 16  # resized from 12x12
PATCH_SIZE = 4
NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2
PROJECTION_DIM = 16
NUM_HEADS = 2
TRANSFORMER_UNITS = [PROJECTION_DIM * 2, PROJECTION_DIM]
TRANSFORMER_LAYERS = 2
MLP_HEAD_UNITS = [32]


def make_images(n, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, NUM_CLASSES, n)
    images = rng.uniform(0, 80, (n, 12, 12, 3)).astype("float32")
    for image, label in zip(images, labels):
        top, left = 6 * (label // 2) + rng.integers(0, 2), 6 * (label % 2) + rng.integers(0, 2)
        image[top : top + 4, left : left + 4] += 150
    return images, labels[:, None]


def mlp(x, hidden_units, dropout_rate):
    for units in hidden_units:
        x = layers.Dense(units, activation=keras.activations.gelu)(x)
        x = layers.Dropout(dropout_rate)(x)
    return x


class Patches(layers.Layer):
    def __init__(self, patch_size, **kwargs):
        super().__init__(**kwargs)
        self.patch_size = patch_size

    def call(self, images):
        input_shape = ops.shape(images)
        batch_size, height, width, channels = (
            input_shape[0],
            input_shape[1],
            input_shape[2],
            input_shape[3],
        )
        num_patches_h, num_patches_w = height // self.patch_size, width // self.patch_size
        patches = keras.ops.image.extract_patches(images, size=self.patch_size)
        return ops.reshape(
            patches,
            (
                batch_size,
                num_patches_h * num_patches_w,
                self.patch_size * self.patch_size * channels,
            ),
        )

    def get_config(self):
        config = super().get_config()
        config.update({"patch_size": self.patch_size})
        return config


class PatchEncoder(layers.Layer):
    def __init__(self, num_patches, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_patches = num_patches
        self.projection = layers.Dense(units=projection_dim)
        self.position_embedding = layers.Embedding(input_dim=num_patches, output_dim=projection_dim)

    def call(self, patch):
        positions = ops.expand_dims(ops.arange(start=0, stop=self.num_patches, step=1), axis=0)
        return self.projection(patch) + self.position_embedding(positions)

    def get_config(self):
        config = super().get_config()
        config.update({"num_patches": self.num_patches})
        return config


def create_vit_classifier(data_augmentation):
    inputs = keras.Input(shape=(12, 12, 3))
    augmented = data_augmentation(inputs)
    patches = Patches(PATCH_SIZE)(augmented)
    encoded_patches = PatchEncoder(NUM_PATCHES, PROJECTION_DIM)(patches)
    for _ in range(TRANSFORMER_LAYERS):
        x1 = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
        attention_output = layers.MultiHeadAttention(
            num_heads=NUM_HEADS, key_dim=PROJECTION_DIM, dropout=0.1
        )(x1, x1)
        x2 = layers.Add()([attention_output, encoded_patches])
        x3 = layers.LayerNormalization(epsilon=1e-6)(x2)
        x3 = mlp(x3, hidden_units=TRANSFORMER_UNITS, dropout_rate=0.1)
        encoded_patches = layers.Add()([x3, x2])
    representation = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
    representation = layers.Flatten()(representation)
    representation = layers.Dropout(0.3)(representation)
    features = mlp(representation, hidden_units=MLP_HEAD_UNITS, dropout_rate=0.3)
    logits = layers.Dense(NUM_CLASSES)(features)
    return keras.Model(inputs=inputs, outputs=logits)


def main(epochs=10, n_train=1024, n_test=256):
    keras.utils.set_random_seed(6)
    x_train, y_train = make_images(n_train, 0)
    x_test, y_test = make_images(n_test, 1)

    data_augmentation = keras.Sequential(
        [
            layers.Normalization(),
            layers.Resizing(IMAGE_SIZE, IMAGE_SIZE),
            layers.RandomContrast(factor=0.1),  # (a flip would swap the classes here)
            layers.RandomRotation(factor=0.02),
            layers.RandomZoom(height_factor=0.1, width_factor=0.1),
        ],
        name="data_augmentation",
    )
    data_augmentation.layers[0].adapt(x_train)
    patch_shape = tuple(ops.shape(Patches(PATCH_SIZE)(ops.convert_to_tensor(x_train[:2]))))

    model = create_vit_classifier(data_augmentation)
    optimizer = keras.optimizers.AdamW(learning_rate=2e-3, weight_decay=1e-4)
    model.compile(
        optimizer=optimizer,
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[
            keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
            keras.metrics.SparseTopKCategoricalAccuracy(3, name="top-3-accuracy"),
        ],
    )
    history = model.fit(
        x=x_train, y=y_train, batch_size=64, epochs=epochs, validation_split=0.1, verbose=0
    )
    _, accuracy, top_3_accuracy = model.evaluate(x_test, y_test, verbose=0)
    return {
        "patch_shape": patch_shape,
        "first_loss": history.history["loss"][0],
        "last_loss": history.history["loss"][-1],
        "test_accuracy": float(accuracy),
        "test_top_3_accuracy": float(top_3_accuracy),
    }


def check(result):
    assert result["patch_shape"] == (2, 9, PATCH_SIZE * PATCH_SIZE * 3), result  # 12x12 -> 3x3
    assert result["last_loss"] < 0.7 * result["first_loss"], result
    assert result["test_accuracy"] > 0.6, result  # chance: 0.25
    assert result["test_top_3_accuracy"] >= result["test_accuracy"], result


if __name__ == "__main__":
    outcome = main()
    print(outcome)
    check(outcome)
