"""The Layer base: building, tracking, trainable flags, training propagation, losses, config."""

import gc
import inspect
import threading

import numpy as np
import pytest

import tripod
from tripod import layers, ops
from tripod.layers import Layer
from tripod.layers.layer import frozen_structure


class Scale(Layer):
    """A layer with one weight and a training-dependent output (for the tests)."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
        self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, name="count")

    def call(self, x, training=None):
        y = ops.multiply(x, self.w.value)
        return ops.multiply(y, self.factor) if training else y

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


class Parent(Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = Scale(3.0)
        self.stack = [layers.Dense(2), layers.Dense(1)]

    def call(self, x):
        return self.stack[1](self.stack[0](self.inner(x)))


def test_lazy_build_and_weights():
    layer = Scale()
    assert not layer.built
    out = layer(np.ones((2, 4), "float32"))
    assert layer.built and ops.shape(out) == (2, 4)
    assert [v.name for v in layer.trainable_weights] == ["w"]
    assert [v.name for v in layer.non_trainable_weights] == ["count"]
    assert [v.path for v in layer.weights] == [f"{layer.name}/w", f"{layer.name}/count"]


def test_sub_layers_in_attributes_and_lists_are_tracked():
    parent = Parent()
    parent(np.ones((1, 3), "float32"))
    assert parent._layers == [parent.inner, *parent.stack]
    assert len(parent.trainable_weights) == 1 + 2 + 2
    assert len(parent.non_trainable_weights) == 1


class Blocks(Layer):
    """Keeps its sub-layers under `self.layers`, as KerasHub's DINOv2 encoder does."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.layers = [layers.Dense(2, name="first"), layers.Dense(1, name="second")]

    def call(self, x):
        return self.layers[1](self.layers[0](x))


def test_a_plain_layer_may_name_an_attribute_layers_which_a_model_reserves():
    blocks = Blocks(name="blocks")
    blocks(np.ones((1, 3), "float32"))
    paths = [w.path for w in blocks.weights]
    assert paths == [
        "blocks/first/kernel",
        "blocks/first/bias",
        "blocks/second/kernel",
        "blocks/second/bias",
    ]
    model = tripod.Sequential([layers.Dense(1)])
    with pytest.raises(AttributeError, match="reserved"):
        model.layers = []


class Decoder(Layer):
    """A `build` whose one parameter is not named for `call`'s argument (KerasHub's Falcon)."""

    def build(self, decoder_sequence_shape):
        self.dense = layers.Dense(decoder_sequence_shape[-1], name="dense")
        self.dense.build(decoder_sequence_shape)

    def call(self, inputs, padding_mask=None, training=None):
        return self.dense(inputs)


@pytest.mark.parametrize("by_keyword", [False, True])
def test_a_build_of_one_parameter_takes_the_first_arguments_shape_whatever_its_name(by_keyword):
    decoder, x = Decoder(), np.ones((2, 5, 4), "float32")
    decoder(training=False, inputs=x) if by_keyword else decoder(x, training=False)
    assert decoder.get_build_config() == {"input_shape": (2, 5, 4)}
    assert tuple(decoder.dense.kernel.shape) == (4, 4)


class Composite(Layer):
    """No `build`: its sub-layers build when it runs (KerasHub's Swin stages and DeBERTa's
    relative embedding); `compute_output_shape` alone would never run them."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.norm = layers.LayerNormalization(name="norm")
        self.proj = layers.Dense(4, name="proj")

    def call(self, x):
        return self.proj(self.norm(x))

    def compute_output_shape(self, input_shape):
        return (*input_shape[:-1], 4)


def test_a_layer_without_build_builds_its_sub_layers_by_tracing_its_call():
    inputs = tripod.Input((3,))
    model = tripod.Model(inputs, Composite(name="c")(inputs))
    assert [w.path for w in model.weights] == [
        "c/norm/gamma",
        "c/norm/beta",
        "c/proj/kernel",
        "c/proj/bias",
    ]
    eager = Composite(name="e")
    eager(np.ones((2, 3), "float32"))
    assert eager.built and len(eager.weights) == 4


class Patches(Layer):
    """Built by its parent's `build` directly, as DINOv2's embedding builds its patch layer."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.proj = layers.Dense(4, kernel_initializer="ones", name="proj")

    def build(self, input_shape):
        self.proj.build(input_shape)

    def call(self, x):
        return self.proj(x)


def test_a_build_called_directly_marks_the_layer_built():
    patches = Patches(name="p")
    patches.build((None, 3))
    assert patches.built and patches.get_build_config() == {"input_shape": (None, 3)}
    patches.proj.kernel.assign(np.full((3, 4), 2.0, "float32"))  # a loaded value, say
    out = patches(np.ones((1, 3), "float32"))  # uses it: the call builds nothing anew
    np.testing.assert_allclose(ops.convert_to_numpy(out), np.full((1, 4), 6.0))
    assert len(patches.weights) == 2


class FrozenFirst(Layer):
    def build(self, input_shape):
        self.count = self.add_weight(shape=(2,), initializer="zeros", name="count", trainable=False)
        self.scale = self.add_weight(shape=(2,), initializer="ones", name="scale")


def test_own_weights_list_the_trainable_first_as_keras_numbers_them_in_files(tmp_path):
    layer = FrozenFirst(name="f")
    layer.build((None, 2))
    assert [w.name for w in layer.weights] == ["scale", "count"]
    layer.scale.trainable = False  # a later flag change (LoRA freezes kernels) keeps the place
    assert [w.name for w in layer.weights] == ["scale", "count"]
    store = {}
    layer.save_own_variables(store)
    np.testing.assert_array_equal(store["0"], [1.0, 1.0])  # "0" is the scale, as Keras writes


def test_unnamed_weights_are_named_as_keras_names_them():
    tripod.utils.clear_session()
    layer = Layer(name="head")
    first, second = layer.add_weight(shape=(1,)), layer.add_weight(shape=(2,))
    assert [first.path, second.path] == ["head/variable", "head/variable_1"]
    assert tripod.Variable(1.0).name == "variable_2"
    tripod.utils.clear_session()
    assert tripod.Variable(1.0).name == "variable"


def test_every_compute_mask_takes_mask_by_keyword_as_in_keras():
    overriding = {
        cls
        for cls in vars(layers).values()
        if isinstance(cls, type)
        and issubclass(cls, Layer)
        and cls.compute_mask is not Layer.compute_mask
    }
    assert {layers.Embedding, layers.Concatenate, layers.LSTM} <= overriding
    for cls in overriding:
        assert list(inspect.signature(cls.compute_mask).parameters)[2] == "mask", cls


def test_freezing_a_parent_freezes_children():
    parent = Parent()
    parent(np.ones((1, 3), "float32"))
    parent.trainable = False
    assert parent.trainable_weights == []
    assert len(parent.non_trainable_weights) == 6
    assert not parent.stack[0].trainable


def test_each_variables_own_flag_decides_under_a_frozen_layer():
    """As in Keras 3: freezing a layer turns off the flags of the variables created trainable
    (a statistic created non-trainable stays off through a thaw), and a variable made trainable
    after the freeze, as LoRA makes its factors, is one of the parent's trainable weights."""
    parent = Parent()
    parent(np.ones((1, 3), "float32"))
    inner = parent.inner
    inner.trainable = False
    assert [v.trainable for v in inner.weights_all()] == [False, False]
    inner.w.trainable = True  # LoRA's move: a factor trains inside a frozen layer
    assert parent.trainable_weights[0] is inner.w
    assert len(parent.trainable_weights) == 1 + 2 + 2
    assert inner.trainable_weights == []  # the frozen layer itself reports none
    inner.trainable = True
    assert [v.trainable for v in inner.weights_all()] == [True, False]


def test_training_flag_reaches_nested_layers():
    class Outer(Layer):
        def __init__(self):
            super().__init__()
            self.scale = Scale(2.0)

        def call(self, x):  # does not pass `training` on: the call context does
            return self.scale(x)

    outer = Outer()
    x = np.ones((1, 2), "float32")
    np.testing.assert_allclose(ops.convert_to_numpy(outer(x, training=True)), 2.0)
    np.testing.assert_allclose(ops.convert_to_numpy(outer(x, training=False)), 1.0)
    np.testing.assert_allclose(ops.convert_to_numpy(outer(x)), 1.0)


def test_training_none_is_not_passed_to_a_call_without_the_argument():
    """`layer(x, training=None)` works on a call that takes no `training`, as in Keras; a call
    that takes it gets its own default."""

    class Double(Layer):
        def call(self, x):
            return x * 2.0

    class Flagged(Layer):
        def call(self, x, training="default"):
            return training

    x = np.ones((1, 2), "float32")
    np.testing.assert_allclose(ops.convert_to_numpy(Double()(x, training=None)), 2.0)
    assert Flagged()(x, training=None) == "default"


class Penalized(Layer):
    """Adds the sum of its inputs as a loss on each call."""

    def call(self, x):
        self.add_loss(ops.sum(x))
        return x


def test_add_loss_is_reset_each_top_level_call():
    layer = Penalized()
    layer(np.ones((2,), "float32"))
    layer(np.full((2,), 3.0, "float32"))
    assert len(layer.losses) == 1
    assert float(ops.convert_to_numpy(layer.losses[0])) == 6.0


def test_weight_regularizers_add_losses():
    dense = layers.Dense(
        2, kernel_regularizer=tripod.regularizers.L2(0.5), kernel_initializer="ones"
    )
    dense(np.ones((1, 3), "float32"))
    assert len(dense.losses) == 1
    assert float(ops.convert_to_numpy(dense.losses[0])) == pytest.approx(0.5 * 6)


def test_config_round_trip_and_from_config():
    layer = Scale(5.0, name="scaler", dtype="float64")
    clone = Scale.from_config(layer.get_config())
    assert clone.name == "scaler" and clone.factor == 5.0 and clone.dtype == "float64"


@pytest.mark.parametrize("error", [TypeError, ValueError])
def test_from_config_reports_any_constructor_error_as_a_type_error(error):
    """As in Keras, whatever the constructor raises comes back as a TypeError naming the class
    and the config (libraries catch TypeError around `from_config`)."""

    class Picky(Layer):
        def __init__(self, size, **kwargs):
            super().__init__(**kwargs)
            raise error(f"size {size} is not allowed")

    with pytest.raises(TypeError, match=r"Picky.*'size': 3.*size 3 is not allowed") as info:
        Picky.from_config({"size": 3})
    assert isinstance(info.value.__cause__, error)


@pytest.mark.parametrize("by_keyword", [False, True])
def test_compute_output_shape_takes_the_shapes_of_the_call_arguments_however_passed(by_keyword):
    """As Keras does: one parameter takes the first argument's shape; `<argument>_shape`
    parameters take the shapes of those arguments, passed by position or keyword (KerasHub's
    decoders are called `decoder(decoder_sequence=x, encoder_sequence=y)`)."""

    class Decoder(Layer):
        def call(self, decoder_sequence, encoder_sequence=None):
            return ops.concatenate([decoder_sequence, encoder_sequence], axis=1)

        def compute_output_shape(self, decoder_sequence_shape, encoder_sequence_shape=None):
            steps = decoder_sequence_shape[1] + encoder_sequence_shape[1]
            return (decoder_sequence_shape[0], steps, decoder_sequence_shape[2])

    class Doubler(Layer):
        def call(self, decoder_sequence, encoder_sequence=None):
            return decoder_sequence * 2

        def compute_output_shape(self, input_shape):
            return input_shape

    d, e = tripod.Input((3, 4)), tripod.Input((5, 4))
    for layer, steps in ((Decoder(), 8), (Doubler(), 3)):
        y = layer(encoder_sequence=e, decoder_sequence=d) if by_keyword else layer(d, e)
        assert y.shape == (None, steps, 4)


def test_default_get_config_of_simple_custom_layer():
    class Simple(Layer):
        def __init__(self, units, flag=False, **kwargs):
            super().__init__(**kwargs)
            self.units, self.flag = units, flag

        def call(self, x):
            return x

    config = Simple(4, flag=True, name="s").get_config()
    assert config["units"] == 4 and config["flag"] is True
    assert Simple.from_config(config).units == 4


def test_unknown_constructor_argument_names_the_layer():
    """Keras 3's ValueError, naming the layer class and each unknown argument with its value."""
    with pytest.raises(
        ValueError, match=r"^Unrecognized keyword arguments passed to Dense: \{'bogus': 1\}$"
    ):
        layers.Dense(2, bogus=1)
    with pytest.raises(ValueError, match=r"to Layer: \{'zzz': 1, 'aaa': 2\}"):
        layers.Layer(zzz=1, aaa=2)


def test_set_weights_checks_shapes():
    dense = layers.Dense(2)
    dense(np.ones((1, 3), "float32"))
    with pytest.raises(ValueError, match="has shape"):
        dense.set_weights([np.ones((4, 2)), np.ones((2,))])
    dense.set_weights([np.ones((3, 2)), np.zeros((2,))])
    np.testing.assert_allclose(
        ops.convert_to_numpy(dense(np.ones((1, 3), "float32"))), [[3.0, 3.0]]
    )


def test_mixed_precision_policy_computes_in_low_precision():
    dense = layers.Dense(2, dtype="mixed_float16")
    out = dense(np.ones((1, 3), "float32"))
    assert ops.dtype(out) == "float16"
    assert dense.kernel.dtype == "float32"


def test_float64_inputs_are_cast_to_the_compute_dtype():
    dense = layers.Dense(2)
    assert ops.dtype(dense(np.ones((1, 3)))) == "float32"


def test_stateless_call_leaves_variables_untouched():
    layer = Scale()
    x = np.ones((1, 2), "float32")
    layer(x)
    trainable = [ops.convert_to_tensor(np.full((2,), 4.0, "float32"))]
    non_trainable = [v.value for v in layer.non_trainable_variables]
    out, _ = layer.stateless_call(trainable, non_trainable, x)
    np.testing.assert_allclose(ops.convert_to_numpy(out), [[4.0, 4.0]])
    np.testing.assert_allclose(layer.w.numpy(), [1.0, 1.0])


def test_wrong_input_shape_names_the_layer_and_shapes():
    dense = layers.Dense(2)
    dense(np.ones((1, 3), "float32"))
    with pytest.raises(
        ValueError, match=r"layer 'dense.*expected axis -1 of the input shape to have value 3"
    ):
        dense(np.ones((1, 4), "float32"))


def test_structure_memo_follows_changes_inside_a_frozen_block():
    outer = Layer()
    outer.first = Scale()
    outer.first(np.ones((2, 3), "float32"))
    with frozen_structure():
        assert [w.name for w in outer.trainable_weights] == ["w"]
        assert outer.trainable_weights[0] is outer.trainable_weights[0]  # memoized lookups agree
        outer.second = Scale()  # a new sub-layer: seen at once
        outer.second(np.ones((2, 4), "float32"))  # its add_weight: seen at once
        assert [tuple(w.shape) for w in outer.trainable_weights] == [(3,), (4,)]
        outer.first.trainable = False  # freezing: seen at once
        assert [tuple(w.shape) for w in outer.trainable_weights] == [(4,)]
        outer.second.w.trainable = False  # a variable's own flag is read live
        assert outer.trainable_weights == []
    assert [tuple(w.shape) for w in outer.non_trainable_weights] == [(3,), (), (4,), ()]


def test_a_callback_freezing_a_layer_mid_fit_changes_what_later_losses_see():
    if tripod.config.backend() == "numpy":
        pytest.skip("the numpy backend is inference-only")
    model = tripod.Sequential(
        [tripod.Input((3,)), layers.Dense(2, kernel_regularizer="l2"), layers.Dense(1)]
    )
    model.compile(optimizer="sgd", loss="mse")
    seen = []

    def freeze(epoch, logs):
        model.layers[0].trainable = False
        seen.append(len(model.losses))

    x, y = np.ones((8, 3), "float32"), np.ones((8, 1), "float32")
    model.fit(
        x, y, epochs=2, verbose=0, callbacks=[tripod.callbacks.LambdaCallback(on_epoch_end=freeze)]
    )
    assert seen == [0, 0]  # the frozen layer's regularizer no longer counts, memo or not
    assert len(model.trainable_weights) == 2


class Identity(Layer):
    def call(self, x):
        return x


@pytest.mark.parametrize(
    "given, expected",
    [
        ("float64", "float32"),
        ("float16", "float32"),
        ("float32", "float32"),
        ("int32", "int32"),
        ("bool", "bool"),
    ],
)
def test_floating_inputs_are_cast_and_others_kept(given, expected):
    layer = Identity()
    for x in (np.ones((2, 3), given), ops.convert_to_tensor(np.ones((2, 3), given))):
        for _ in range(2):  # the second call meets the dtype again
            assert ops.dtype(layer(x)) == expected


def test_casting_follows_the_policy_and_reaches_nested_inputs():
    low = Identity(dtype="float16")
    assert ops.dtype(low(np.ones((2,), "float32"))) == "float16"
    first, second, scalar = Identity()([np.ones((2,), "float64"), np.ones((2,), "int32"), 2.5])
    assert (ops.dtype(first), ops.dtype(second), scalar) == ("float32", "int32", 2.5)
    same = ops.convert_to_tensor(np.ones((2,), "float32"))
    assert Identity()(same) is same  # nothing to cast: the very same tensor


def test_losses_of_a_deleted_layer_are_dropped_without_error():
    doomed = Penalized()
    doomed(np.ones((2,), "float32"))
    del doomed
    gc.collect()
    kept = Penalized()
    kept(np.ones((2,), "float32"))
    kept(np.ones((2,), "float32"))
    assert len(kept.losses) == 1


def test_the_training_flag_of_a_call_stays_on_its_thread():
    seen = []
    inside, done = threading.Event(), threading.Event()

    class Recorder(Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(Layer):
        def __init__(self):
            super().__init__()
            self.inner = Recorder()

        def call(self, x, training=None):
            inside.set()
            done.wait(10)  # the main thread calls the inner layer while this call is open
            return self.inner(x)

    outer, x = Outer(), np.ones((1,), "float32")
    thread = threading.Thread(target=lambda: outer(x, training=True))
    thread.start()
    inside.wait(10)
    outer.inner(x)
    done.set()
    thread.join()
    assert seen == [None, True]


def test_add_variable_takes_keras_argument_order_and_creates_a_tracked_weight():
    layer = Layer(name="holder")
    kernel = layer.add_variable((2, 3), "ones", "float32", True, True, "l2", None, "kernel")
    count = layer.add_variable(
        shape=(), initializer="zeros", dtype="int32", trainable=False, name="count"
    )
    np.testing.assert_array_equal(kernel.numpy(), np.ones((2, 3), "float32"))
    assert kernel.path == "holder/kernel" and kernel.regularizer is not None
    assert count.dtype == "int32" and int(count.numpy()) == 0
    assert layer.trainable_weights == [kernel] and layer.non_trainable_weights == [count]
    with pytest.raises(TypeError):
        layer.add_variable((2,))  # shape and initializer are both required, as in Keras


class _Block(Layer):
    """Two sub-layers built in `build`, one of them with sub-layers of its own."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = layers.Dense(2, name="inner")
        self.attention = layers.MultiHeadAttention(1, 2, name="attention")

    def build(self, input_shape):
        self.inner.build(input_shape)
        self.attention.build(input_shape, input_shape)

    def call(self, x):
        return self.inner(x)


def test_variable_paths_nest_under_the_layers_that_built_them():
    """As in Keras 3: `model/block/inner/kernel`, so blocks with same-named sub-layers (a
    transformer's) give every variable its own path; before, paths were `inner/kernel`."""

    class Stack(tripod.Model):
        def __init__(self):
            super().__init__(name="stack")
            self.blocks = [_Block(name="block_0"), _Block(name="block_1")]

        def call(self, x):
            return self.blocks[1](self.blocks[0](x))

    model = Stack()
    model(np.ones((1, 2, 2), "float32"))
    paths = [v.path for v in model.weights]
    assert paths[:3] == [
        "stack/block_0/inner/kernel",
        "stack/block_0/inner/bias",
        "stack/block_0/attention/query/kernel",
    ]
    assert len(set(paths)) == len(paths) == 2 * (2 + 8)
    sequential = tripod.Sequential([tripod.Input((3,)), layers.Dense(2, name="d")], name="seq")
    assert [v.path for v in sequential.weights] == ["seq/d/kernel", "seq/d/bias"]
    loaded = tripod.Sequential.from_config(sequential.get_config())
    assert [v.path for v in loaded.weights] == ["seq/d/kernel", "seq/d/bias"]


class _Lengths(Layer):
    """A layer of Python strings, as a KerasHub tokenizer is: it asks for its inputs as given."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True

    def call(self, texts):
        return np.array([len(text) for text in texts], "int32")


def test_a_layer_can_take_its_inputs_unconverted():
    """Keras's `_convert_input_args = False`: strings reach `call` as they were passed, on every
    backend (before, jax and torch failed converting them to tensors)."""
    layer = _Lengths()
    assert layer(["ab", "cde"]).tolist() == [2, 3]
    assert layer(np.array(["ab", "cde"])).tolist() == [2, 3]


def test_attributes_set_without_dependency_tracking_are_not_tracked():
    """Keras's `no_automatic_dependency_tracking` (keras-rs decorates its config setup with it):
    what the decorated method assigns is neither a sub-layer, a weight nor saved state."""
    from tripod.layers.tracking import no_automatic_dependency_tracking

    class Holder(Layer):
        def __init__(self):
            super().__init__()
            self.kept = layers.Dense(2)
            self._set_aside()

        @no_automatic_dependency_tracking
        def _set_aside(self):
            self.aside = layers.Dense(3)
            self.configs = {"a": [layers.Dense(4)]}

    holder = Holder()
    holder.build((None, 5))
    holder.kept.build((None, 5))
    holder.aside.build((None, 5))
    assert holder._layers == [holder.kept]
    assert len(holder.weights) == 2  # kept's kernel and bias alone
    assert isinstance(holder.configs, dict)  # the container is left as it was assigned
    holder.later = layers.Dense(1)  # outside the decorated method tracking holds again
    assert holder._layers == [holder.kept, holder.later]
    assert Layer._UNTRACKED == type(holder)._UNTRACKED  # the class is left unchanged
