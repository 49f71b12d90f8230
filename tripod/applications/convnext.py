"""ConvNeXt Tiny, Small, Base, Large and XLarge (Liu et al., "A ConvNet for the 2020s", 2022):
Keras 3's `keras.applications.convnext`, with its layer names, so Keras's ImageNet files load.

The models normalize their own inputs (a `Normalization` layer when `include_preprocessing`), so
they take pixels in [0, 255]; `preprocess_input` returns its input unchanged, as Keras's does.
"""

import numpy as np

from tripod import layers
from tripod.applications import common, imagenet_utils
from tripod.applications import weights as weights_lib
from tripod.backends import active, config
from tripod.backends.common.seed import SeedGenerator
from tripod.layers import initializers
from tripod.layers.layer import Layer
from tripod.training.model import Model
from tripod.training.sequential import Sequential

ops = active()

BASE_WEIGHTS_PATH = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"

#: weights name -> (sha256 of the file with the top, of the file without it)
WEIGHTS_HASHES = {
    "convnext_tiny": (
        "8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
        "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1",
    ),
    "convnext_small": (
        "ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
        "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab",
    ),
    "convnext_base": (
        "52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
        "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45",
    ),
    "convnext_large": (
        "070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
        "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd",
    ),
    "convnext_xlarge": (
        "c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05",
    ),
}

#: variant -> blocks per stage and channels per stage (all take 224x224 images by default)
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768]},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768]},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024]},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536]},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048]},
}
DEFAULT_SIZE = 224

#: ImageNet-1k channel means and standard deviations, on the [0, 255] pixel scale
_PIXEL_MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
_PIXEL_STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]
_EPSILON = 1e-6
_KERAS_MODULE = "keras.src.applications.convnext"


class StochasticDepth(Layer):
    """Drops the whole residual branch of some samples while training (scaling the kept ones by
    `1 / (1 - drop_path_rate)`): the regularizer deep ConvNeXts train with; identity otherwise."""

    _keras_module = _KERAS_MODULE

    def __init__(self, drop_path_rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= drop_path_rate <= 1:
            raise ValueError(
                f"StochasticDepth '{self.name}': drop_path_rate must be in [0, 1], received "
                f"{drop_path_rate!r}."
            )
        self.drop_path_rate = drop_path_rate
        self.seed = seed
        self.seed_generator = SeedGenerator(seed)
        self.built = True

    def call(self, x, training=None):
        if not training or self.drop_path_rate == 0:
            return x
        per_sample = (ops.shape(x)[0],) + (1,) * (len(x.shape) - 1)
        return ops.dropout(x, self.drop_path_rate, noise_shape=per_sample, seed=self.seed_generator)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "drop_path_rate": self.drop_path_rate, "seed": self.seed}


class LayerScale(Layer):
    """Multiplies each channel by a learned scale that starts at `init_values` (small, so each
    residual block starts close to the identity)."""

    _keras_module = _KERAS_MODULE

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim

    def build(self, input_shape):
        self.gamma = self.add_weight(
            name="gamma",
            shape=(self.projection_dim,),
            initializer=initializers.Constant(self.init_values),
        )

    def call(self, x):
        return x * self.gamma

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {
            **super().get_config(),
            "init_values": self.init_values,
            "projection_dim": self.projection_dim,
        }


def _block(x, projection_dim, drop_path_rate, layer_scale_init_value, name):
    """One ConvNeXt block: 7x7 depthwise conv, LayerNorm, an inverted-bottleneck MLP (Dense
    layers act as the 1x1 convs), optional LayerScale and stochastic depth, plus the input."""
    y = layers.Conv2D(
        projection_dim, 7, padding="same", groups=projection_dim, name=f"{name}_depthwise_conv"
    )(x)
    y = layers.LayerNormalization(epsilon=_EPSILON, name=f"{name}_layernorm")(y)
    y = layers.Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(y)
    y = layers.Activation("gelu", name=f"{name}_gelu")(y)
    y = layers.Dense(projection_dim, name=f"{name}_pointwise_conv_2")(y)
    if layer_scale_init_value is not None:
        y = LayerScale(layer_scale_init_value, projection_dim, name=f"{name}_layer_scale")(y)
    if drop_path_rate:
        y = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")(y)
    else:
        y = layers.Activation("linear", name=f"{name}_identity")(y)
    return x + y


def _downsampling_stages(projection_dims, name):
    """The stem (4x4 patches) and the three 2x2 downsamplings, each a named `Sequential`."""
    stem = Sequential(
        [
            layers.Conv2D(projection_dims[0], 4, strides=4, name=f"{name}_stem_conv"),
            layers.LayerNormalization(epsilon=_EPSILON, name=f"{name}_stem_layernorm"),
        ],
        name=f"{name}_stem",
    )
    downsamplings = [
        Sequential(
            [
                layers.LayerNormalization(
                    epsilon=_EPSILON, name=f"{name}_downsampling_layernorm_{i}"
                ),
                layers.Conv2D(dims, 2, strides=2, name=f"{name}_downsampling_conv_{i}"),
            ],
            name=f"{name}_downsampling_block_{i}",
        )
        for i, dims in enumerate(projection_dims[1:])
    ]
    return [stem, *downsamplings]


def _head(x, classes, classifier_activation, name):
    """Global average pooling, LayerNorm and the classifier."""
    x = layers.GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
    x = layers.LayerNormalization(epsilon=_EPSILON, name=f"{name}_head_layernorm")(x)
    return layers.Dense(classes, activation=classifier_activation, name=f"{name}_head_dense")(x)


def _features(x, pooling):
    """Without the top: optional global pooling, then LayerNorm."""
    return layers.LayerNormalization(epsilon=_EPSILON)(common.pool(x, pooling))


def _check_imagenet_variant(depths, projection_dims, name, weights_name):
    """ImageNet weights load by layer name into one variant: its config, its name prefix."""
    expected = MODEL_CONFIGS.get(str(weights_name).removeprefix("convnext_"))
    if expected is None:
        raise ValueError(
            f"ConvNeXt: no ImageNet weights named {weights_name!r}; pass weights_name, one of "
            f"{sorted(WEIGHTS_HASHES)}."
        )
    if list(depths) != expected["depths"] or list(projection_dims) != expected["projection_dims"]:
        raise ValueError(
            f"ConvNeXt: the architecture does not match the {weights_name} weights: expected "
            f"depths {expected['depths']} and projection_dims {expected['projection_dims']}, "
            f"received {list(depths)} and {list(projection_dims)}."
        )
    if weights_name not in name:
        raise ValueError(
            f"ConvNeXt: model name {name!r} does not contain {weights_name!r}; with ImageNet "
            "weights the layer names (which start with the model name) must match the file's."
        )


def _load(model, weights, include_top, weights_name):
    """Keras's published file for `weights_name` (with or without the top), or a path, or None."""
    url = file_hash = None
    if weights == "imagenet":
        suffix = ".h5" if include_top else "_notop.h5"
        url = f"{BASE_WEIGHTS_PATH}{weights_name}{suffix}"
        file_hash = WEIGHTS_HASHES[weights_name][0 if include_top else 1]
    weights_lib.load_weights(model, weights, url, file_hash)


def ConvNeXt(
    depths,
    projection_dims,
    drop_path_rate=0.0,
    layer_scale_init_value=1e-6,
    default_size=DEFAULT_SIZE,
    name="convnext",
    include_preprocessing=True,
    include_top=True,
    weights=None,
    input_tensor=None,
    input_shape=None,
    pooling=None,
    classes=1000,
    classifier_activation="softmax",
    weights_name=None,
):
    """A ConvNeXt of any depth and width: `depths[i]` blocks of `projection_dims[i]` channels in
    stage i, stochastic depth rising linearly to `drop_path_rate` over the blocks. The named
    variants (`ConvNeXtTiny`, ...) call it; ImageNet weights need `weights_name` of a variant."""
    if config.image_data_format() == "channels_first":
        raise ValueError(
            "ConvNeXt does not support the 'channels_first' image data format; set "
            "image_data_format to 'channels_last' (tripod.config.set_image_data_format)."
        )
    if weights == "imagenet":
        _check_imagenet_variant(depths, projection_dims, name, weights_name)
    img_input = common.checked_image_input(
        input_tensor, input_shape, weights, include_top, classes, default_size
    )
    x = img_input
    if include_preprocessing and img_input.shape[-1] == 3:
        x = layers.Normalization(
            mean=_PIXEL_MEAN,
            variance=[std**2 for std in _PIXEL_STD],
            name=f"{name}_prestem_normalization",
        )(x)
    rates = np.linspace(0.0, drop_path_rate, sum(depths)).tolist()
    stages = _downsampling_stages(projection_dims, name)
    for i, (downsampling, depth, dims) in enumerate(zip(stages, depths, projection_dims)):
        x = downsampling(x)
        first = sum(depths[:i])
        for j in range(depth):
            block_name = f"{name}_stage_{i}_block_{j}"
            x = _block(x, dims, rates[first + j], layer_scale_init_value, block_name)
    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = _head(x, classes, classifier_activation, name)
    else:
        x = _features(x, pooling)
    model = Model(inputs=common.model_inputs(input_tensor, img_input), outputs=x, name=name)
    _load(model, weights, include_top, weights_name)
    return model


def _variant(size, public_name):
    """The public constructor `public_name` of variant `size` ("tiny", ...), with Keras's
    signature."""
    weights_name = f"convnext_{size}"

    def build(
        include_top=True,
        include_preprocessing=True,
        weights="imagenet",
        input_tensor=None,
        input_shape=None,
        pooling=None,
        classes=1000,
        classifier_activation="softmax",
        name=weights_name,
    ):
        return ConvNeXt(
            MODEL_CONFIGS[size]["depths"],
            MODEL_CONFIGS[size]["projection_dims"],
            name=name,
            include_preprocessing=include_preprocessing,
            include_top=include_top,
            weights=weights,
            input_tensor=input_tensor,
            input_shape=input_shape,
            pooling=pooling,
            classes=classes,
            classifier_activation=classifier_activation,
            weights_name=weights_name,
        )

    build.__name__ = build.__qualname__ = public_name
    build.__doc__ = (
        f"The {public_name} image classifier (224x224 by default, pixels in "
        "[0, 255]), optionally with Keras's ImageNet weights.\n\n"
        "Args: as Keras's: include_top, include_preprocessing (normalize inputs inside the "
        "model), weights (None, 'imagenet' or a path), input_tensor, input_shape, pooling "
        "(None, 'avg' or 'max' without the top), classes, classifier_activation, name."
    )
    return build


ConvNeXtTiny = _variant("tiny", "ConvNeXtTiny")
ConvNeXtSmall = _variant("small", "ConvNeXtSmall")
ConvNeXtBase = _variant("base", "ConvNeXtBase")
ConvNeXtLarge = _variant("large", "ConvNeXtLarge")
ConvNeXtXLarge = _variant("xlarge", "ConvNeXtXLarge")


def preprocess_input(x, data_format=None):
    """Returns `x` unchanged: ConvNeXt models normalize their inputs themselves (kept so code
    written for other applications runs unchanged)."""
    return x


#: the ImageNet classes of predictions, as every application module exposes them
decode_predictions = imagenet_utils.decode_predictions
