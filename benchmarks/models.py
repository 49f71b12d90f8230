"""The benchmark problems' models, written once against the Keras 3 API: pass the module (`tripod`
or `keras`) and get the same model from either library. Imports neither, so a Keras process never
loads tripod."""

from benchmarks.problems import PROBLEMS

#: `compile` arguments every problem's model gets on top of its own: `{"jit_compile": True}`
#: under `benchmarks.run --jit-compile` (the worker sets them, as `problems.shrink_all` sizes)
COMPILE_OPTIONS = {}


def build(lib, name):
    """The problem's model and compile arguments, built with `lib` (the `tripod` or `keras` module).
    Under COMPILE_OPTIONS the model comes compiled with them already, so that `predict` (which
    compiles nothing itself) runs the step they ask for too."""
    model = BUILDERS[name](lib, PROBLEMS[name])
    rate = 0.01 if name == "tutorial_mlp" else 0.001
    compile_args = {
        "optimizer": lib.optimizers.Adam(rate),
        "loss": _loss(lib, PROBLEMS[name].target),
        **COMPILE_OPTIONS,
    }
    if COMPILE_OPTIONS:
        model.compile(**compile_args)
    return model, compile_args


def _loss(lib, target):
    """Mean squared error, binary crossentropy on probabilities, or sparse crossentropy on logits."""
    if target == "regression":
        return "mse"
    if target == "binary":
        return "binary_crossentropy"
    return lib.losses.SparseCategoricalCrossentropy(from_logits=True)


def _sequential(lib, problem, *stack):
    return lib.Sequential([lib.Input(problem.shape), *stack])


def tutorial_mlp(lib, problem):
    """10 -> Dense(32, relu) -> Dense(1)."""
    layers = lib.layers
    return _sequential(lib, problem, layers.Dense(32, activation="relu"), layers.Dense(1))


def mnist_mlp(lib, problem):
    """784 -> 256 -> 256 -> 10, relu."""
    layers = lib.layers
    dense = [
        layers.Dense(256, activation="relu"),
        layers.Dense(256, activation="relu"),
        layers.Dense(10),
    ]
    return _sequential(lib, problem, *dense)


def small_cnn(lib, problem):
    """28x28x1 -> Conv 32 -> pool -> Conv 64 -> pool -> Dense 10."""
    layers = lib.layers
    return _sequential(
        lib, problem, layers.Conv2D(32, 3, activation="relu"), layers.MaxPooling2D(),
        layers.Conv2D(64, 3, activation="relu"), layers.MaxPooling2D(), layers.Flatten(), layers.Dense(10),
    )  # fmt: skip


def transformer(lib, problem):
    """The keras.io text-classification transformer: token + position embedding, one encoder block,
    average pooling, a small dense head."""
    layers, width = lib.layers, 32
    tokens = lib.Input(problem.shape, dtype="int32")
    x = _token_and_position(lib)(problem.vocab, problem.shape[0], width)(tokens)
    attended = layers.MultiHeadAttention(num_heads=2, key_dim=width)(x, x)
    x = layers.LayerNormalization(epsilon=1e-6)(x + layers.Dropout(0.1)(attended))
    fed = layers.Dense(width)(layers.Dense(32, activation="relu")(x))
    x = layers.LayerNormalization(epsilon=1e-6)(x + layers.Dropout(0.1)(fed))
    x = layers.Dropout(0.1)(layers.GlobalAveragePooling1D()(x))
    x = layers.Dropout(0.1)(layers.Dense(20, activation="relu")(x))
    return lib.Model(tokens, layers.Dense(problem.units)(x))


def _token_and_position(lib):
    """The keras.io example's TokenAndPositionEmbedding layer class, subclassing `lib`'s Layer."""

    class TokenAndPosition(lib.layers.Layer):
        """Token embedding plus a learned embedding of each position."""

        def __init__(self, vocab, length, width, **kwargs):
            super().__init__(**kwargs)
            self.tokens = lib.layers.Embedding(vocab, width)
            self.positions = lib.layers.Embedding(length, width)

        def call(self, x):
            return self.tokens(x) + self.positions(lib.ops.arange(lib.ops.shape(x)[-1]))

    return TokenAndPosition


def resnet(lib, problem):
    """32x32x3 -> stem Conv(16)+BN+relu -> basic blocks of 16, 32, 64 filters -> pool -> Dense 10."""
    layers = lib.layers
    images = lib.Input(problem.shape)
    x = layers.ReLU()(
        layers.BatchNormalization()(layers.Conv2D(16, 3, padding="same", use_bias=False)(images))
    )
    for filters, stride in ((16, 1), (32, 2), (64, 2)):
        x = _basic_block(lib, x, filters, stride)
    return lib.Model(images, layers.Dense(problem.units)(layers.GlobalAveragePooling2D()(x)))


def _basic_block(lib, x, filters, stride):
    """conv-BN-relu-conv-BN plus the shortcut (a strided 1x1 conv when the shape changes), relu."""
    layers = lib.layers
    y = layers.Conv2D(filters, 3, strides=stride, padding="same", use_bias=False)(x)
    y = layers.ReLU()(layers.BatchNormalization()(y))
    y = layers.BatchNormalization()(layers.Conv2D(filters, 3, padding="same", use_bias=False)(y))
    shortcut = layers.Conv2D(filters, 1, strides=stride)(x) if stride != 1 else x
    return layers.ReLU()(layers.Add()([y, shortcut]))


def lstm(lib, problem):
    """Token ids -> Embedding(vocab, 64) -> LSTM(64) -> Dense(1, sigmoid)."""
    layers = lib.layers
    tokens = lib.Input(problem.shape, dtype="int32")
    x = layers.LSTM(64)(layers.Embedding(problem.vocab, 64)(tokens))
    return lib.Model(tokens, layers.Dense(1, activation="sigmoid")(x))


BUILDERS = {
    "tutorial_mlp": tutorial_mlp, "mnist_mlp": mnist_mlp, "small_cnn": small_cnn,
    "transformer": transformer, "resnet": resnet, "lstm": lstm,
}  # fmt: skip


def trainable_count(model):
    """Number of trainable scalars in `model` (tripod or Keras)."""
    return sum(int(_size(w.shape)) for w in model.trainable_weights)


def state_count(model):
    """Number of non-trainable float scalars (batch-norm statistics)."""
    return sum(int(_size(w.shape)) for w in model.non_trainable_weights)


def _size(shape):
    size = 1
    for dim in shape:
        size *= dim
    return size
