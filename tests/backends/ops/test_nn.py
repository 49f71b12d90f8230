"""Parity of the nn ops: activations, convolution, pooling, normalization, losses, attention."""

import numpy as np
import pytest

from tests.backends.ops.cases import case, f32, i32, ops_in, params
from tests.backends.ops.harness import randint, randn, uniform

X = randn(2, 3, 4) * 3
EXTREME = np.array([-100.0, -20.0, -1.0, -0.5, 0.0, 0.5, 1.0, 20.0, 100.0], "float32")

# op -> extra keyword cases
ACTIVATIONS = {
    "relu": [{}],
    "relu6": [{}],
    "sigmoid": [{}],
    "softplus": [{}],
    "softsign": [{}],
    "silu": [{}],
    "swish": [{}],
    "log_sigmoid": [{}],
    "hard_sigmoid": [{}],
    "hard_silu": [{}],
    "hard_swish": [{}],
    "hard_tanh": [{}],
    "selu": [{}],
    "tanh_shrink": [{}],
    "sparse_plus": [{}],
    "sparse_sigmoid": [{}],
    "leaky_relu": [{}, {"negative_slope": 0.01}],
    "elu": [{}, {"alpha": 0.5}],
    "celu": [{}, {"alpha": 2.0}],
    "gelu": [{}, {"approximate": False}],
    "hard_shrink": [{}, {"threshold": 1.0}],
    "soft_shrink": [{}, {"threshold": 1.5}],
    "squareplus": [{}, {"b": 1}],
}


def _activation_cases():
    for op, variants in ACTIVATIONS.items():
        for kwargs in variants:
            yield case(op, X, **kwargs)
        yield case(op, EXTREME)
        yield case(op, randn(4).astype("float64"))
        yield case(op, randint(2, 3, low=-3, high=3))
        yield case(op, np.zeros((0, 2), "float32"))
        yield case(op, randn(5).astype("float16")).tol(2e-3)


ACTIVATION = [
    *_activation_cases(),
    case("threshold", X, 0.5, -1.0),
    case("threshold", X, threshold=-1.0, default_value=0.0),
    case("threshold", randint(2, 3, low=-3, high=3), 1, 9),
    case("threshold", EXTREME, 0.0, 2.5),
    case("glu", randn(2, 6)),
    case("glu", randn(4, 3), axis=0),
    case("glu", randn(2, 4, 3), -2),
    case("softmax", X),
    case("softmax", X, 0),
    case("softmax", X, axis=1),
    case("softmax", X, (1, 2)),
    case("softmax", X, (1,)),
    case("softmax", X, [-1]),
    case("softmax", EXTREME),
    case("softmax", np.array([[-np.inf, 0.0, 1.0]], "float32")),
    case("softmax", randn(3).astype("float64")),
    case("softmax", randint(2, 3)),
    case("log_softmax", X),
    case("log_softmax", X, 0),
    case("log_softmax", X, axis=(0, 2)),
    case("log_softmax", X, axis=(-2,)),
    case("log_softmax", EXTREME),
    case("log_softmax", randint(2, 3)),
    case("sparsemax", X),
    case("sparsemax", X, axis=0),
    case("sparsemax", randn(3, 5), -1),
    case("sparsemax", np.array([[1.0, 1.0, 0.0], [5.0, 0.0, 0.0]], "float32")),
]

LABELS = np.array([0, 2, 1, 3, 3], "int32")
ENCODING = [
    case("one_hot", LABELS, 4),
    case("one_hot", LABELS, 4, axis=0),
    case("one_hot", randint(2, 3, high=5), 5),
    case("one_hot", randint(2, 3, high=5), 5, 1),
    case("one_hot", LABELS, 4, dtype="int32"),
    case("one_hot", LABELS, num_classes=6, dtype="bool"),
    case("one_hot", np.array([0, 5, -1, 2], "int32"), 3),  # out of range: an all-zero row
    case("one_hot", LABELS.astype("int64"), 4, -1, "float64"),
    case("one_hot", np.zeros(0, "int32"), 3),
    case("multi_hot", np.array([[0, 2], [1, 1], [3, 0]], "int32"), 4),
    case("multi_hot", np.array([1, 3], "int32"), 5),
    case("multi_hot", randint(2, 3, high=5), num_classes=5, dtype="int32"),
    case("multi_hot", randint(2, 3, 4, high=6), 6, axis=-1),
    case("multi_hot", np.array([[0, 2], [1, 1]], "int32"), 3, dtype="bool"),
]


def _conv_cases():
    """conv over 1-3 spatial dims, both layouts, paddings, strides, dilations and groups."""
    for nd, size in ((1, (9,)), (2, (7, 6)), (3, (5, 6, 5))):
        kernel = randn(*(3,) * nd, 4, 5)
        last = randn(2, *size, 4)
        first = np.moveaxis(last, -1, 1).copy()
        for padding in ("valid", "same"):
            yield case("conv", last, kernel, 1, padding)
            yield case("conv", first, kernel, padding=padding, data_format="channels_first")
            yield case("conv", last, kernel, strides=2, padding=padding)
            yield case("conv", last, kernel, 1, padding, "channels_last", 2)
            yield case("conv", first, kernel, (1,) * (nd - 1) + (2,), padding, "channels_first")
        yield case("conv", last, randn(*(2,) * nd, 2, 6), padding="same")  # 2 groups
        yield case("conv", first, randn(*(1,) * nd, 1, 4), data_format="channels_first")  # 4 groups
        # one input channel a group (ConvNeXt's depthwise Conv2D), strided and dilated
        depthwise = randn(*(3,) * nd, 1, 8)
        yield case("conv", last, depthwise, strides=2, padding="same")
        yield case("conv", last, depthwise, 1, "valid", "channels_last", 2)


def _depthwise_cases():
    for nd, size in ((1, (8,)), (2, (6, 7))):
        last = randn(2, *size, 3)
        first = np.moveaxis(last, -1, 1).copy()
        kernel = randn(*(3,) * nd, 3, 2)
        pointwise = randn(*(1,) * nd, 6, 4)
        for padding in ("valid", "same"):
            yield case("depthwise_conv", last, kernel, 1, padding)
            yield case("depthwise_conv", first, kernel, 2, padding, "channels_first")
            yield case("depthwise_conv", last, kernel, padding=padding, dilation_rate=2)
            yield case("depthwise_conv", last, kernel, (1,) * (nd - 1) + (2,), padding)
            yield case("separable_conv", last, kernel, pointwise, 1, padding)
            yield case("separable_conv", first, kernel, pointwise, 2, padding, "channels_first")
            yield case("separable_conv", last, kernel, pointwise, padding=padding, dilation_rate=2)


def _transpose_cases():
    for nd, size in ((1, (5,)), (2, (4, 3)), (3, (3, 2, 3))):
        last = randn(2, *size, 4)
        first = np.moveaxis(last, -1, 1).copy()
        kernel = randn(*(3,) * nd, 5, 4)  # (spatial..., out, in)
        for padding in ("valid", "same"):
            yield case("conv_transpose", last, kernel, 1, padding)
            yield case("conv_transpose", last, kernel, 2, padding)
            yield case("conv_transpose", first, kernel, 2, padding, data_format="channels_first")
            yield case("conv_transpose", last, kernel, padding=padding, dilation_rate=2)
        yield case("conv_transpose", last, kernel, 2, "valid", output_padding=1)
        yield case("conv_transpose", last, randn(*(2,) * nd, 5, 4), 3, "same", output_padding=2)


def _pool_cases():
    for nd, size in ((1, (9,)), (2, (7, 6)), (3, (5, 4, 6))):
        last = randn(2, *size, 3)
        first = np.moveaxis(last, -1, 1).copy()
        for op in ("max_pool", "average_pool"):
            for padding in ("valid", "same"):
                yield case(op, last, 2, None, padding)
                yield case(op, last, 3, 2, padding)
                yield case(op, first, (2,) * nd, 1, padding, "channels_first")
                yield case(
                    op,
                    last,
                    (3,) + (2,) * (nd - 1),
                    strides=(1,) + (2,) * (nd - 1),
                    padding=padding,
                )
        for op in ("adaptive_max_pool", "adaptive_average_pool"):
            yield case(op, last, 2)
            yield case(op, last, (4,) + (3,) * (nd - 1))
            yield case(op, first, (3,) * nd, data_format="channels_first")
            yield case(op, last, 1)


CONV = [
    *_conv_cases(),
    *_depthwise_cases(),
    *_transpose_cases(),
    *_pool_cases(),
    case("conv", randint(1, 5, 2), randint(2, 2, 3), padding="same"),
    case("max_pool", randint(1, 6, 2), 2),
    case("unfold", randn(2, 3, 5, 4), 2),
    case("unfold", randn(2, 3, 5, 4), (2, 3), stride=2),
    case("unfold", randn(1, 2, 6, 6), 3, dilation=2, padding=1),
    case("unfold", randn(1, 2, 5, 7), (3, 2), (1, 2), (1, 0), (2, 1)),
    case("fold", randn(2, 12, 12), (5, 4), 2),
    case("fold", randn(2, 18, 2), (5, 4), (2, 3), stride=2),
    case("fold", randn(1, 18, 16), (6, 6), 3, dilation=2, padding=1),
    case("fold", randn(1, 12, 15), (5, 7), (3, 2), (1, 2), (1, 0), (2, 1)),
]

SPACE = [
    case("space_to_depth", randn(2, 4, 6, 3), 2),
    case("space_to_depth", randn(2, 3, 4, 6), 2, "channels_first"),
    case("space_to_depth", randn(1, 6, 6, 2), block_size=3),
    case("depth_to_space", randn(2, 2, 3, 12), 2),
    case("depth_to_space", randn(2, 12, 2, 3), 2, data_format="channels_first"),
    case("depth_to_space", randn(1, 2, 2, 18), 3),
]

NORMALIZATION = [
    case("batch_normalization", X, randn(4), uniform(4, low=0.5, high=2), -1),
    case("batch_normalization", X, randn(3), uniform(3, low=0.5, high=2), 1, randn(3), randn(3)),
    case(
        "batch_normalization",
        X,
        randn(2),
        uniform(2, low=0.5, high=2),
        axis=0,
        scale=randn(2),
        epsilon=0.1,
    ),
    case("batch_normalization", X, randn(4), uniform(4, low=0.5, high=2), 2, offset=randn(4)),
    case("layer_normalization", X),
    case("layer_normalization", X, randn(4), randn(4)),
    case("layer_normalization", X, gamma=randn(3, 4), axis=(1, 2), epsilon=1e-3),
    case("layer_normalization", X, beta=randn(4), axis=-1),
    case("layer_normalization", randn(3, 5).astype("float64")),
    case("rms_normalization", X),
    case("rms_normalization", X, randn(4)),
    case("rms_normalization", X, scale=randn(3, 4), axis=(1, 2), epsilon=1e-3),
    case("rms_normalization", X, None, 0),
    case("normalize", X),
    case("normalize", X, 0),
    case("normalize", X, axis=-1, order=1),
    case("normalize", X, (1, 2)),
    case("normalize", np.zeros((2, 3), "float32")),
    case("normalize", X, -1, 2, 1e-3),
    case("moments", X, 0),
    case("moments", X, [0, 1]),
    case("moments", X, (-1,), keepdims=True),
    case("moments", randint(3, 4), 1),
    case("moments", randn(4, 3).astype("float16"), 0).tol(2e-3),
    case("moments", X, [0, 2], True, False),
]

PROBS = uniform(3, 4, low=0.05, high=0.95)
SOFT = np.exp(randn(3, 4)) / np.exp(randn(3, 4)).sum(-1, keepdims=True)
ONE_HOT = np.eye(4, dtype="float32")[[0, 3, 2]]
SPARSE = np.array([0, 3, 2], "int32")
LOGITS = randn(3, 4) * 2
LOSSES = [
    case("binary_crossentropy", (PROBS > 0.5).astype("float32"), PROBS),
    case("binary_crossentropy", uniform(3, 4), PROBS),
    case("binary_crossentropy", (PROBS > 0.5).astype("float32"), LOGITS, True),
    case("binary_crossentropy", uniform(3, 4), LOGITS * 20, from_logits=True),
    case("binary_crossentropy", f32([0.0, 1.0, 1.0]), f32([0.0, 1.0, 0.0])),
    case("binary_crossentropy", randint(3, 4, high=2), PROBS),
    case("categorical_crossentropy", ONE_HOT, SOFT),
    case("categorical_crossentropy", ONE_HOT, LOGITS, True),
    case("categorical_crossentropy", SOFT, LOGITS * 30, from_logits=True),
    case("categorical_crossentropy", ONE_HOT.T, SOFT.T, axis=0),
    case("categorical_crossentropy", ONE_HOT.T, LOGITS.T, True, 0),
    case("categorical_crossentropy", ONE_HOT, SOFT * 3),  # probabilities are renormalized
    case("categorical_crossentropy", ONE_HOT, np.array([[1, 0, 0, 0]] * 3, "float32")),
    case("sparse_categorical_crossentropy", SPARSE, SOFT),
    case("sparse_categorical_crossentropy", SPARSE, LOGITS, True),
    case("sparse_categorical_crossentropy", SPARSE.astype("int64"), LOGITS * 30, from_logits=True),
    case("sparse_categorical_crossentropy", SPARSE[:, None], SOFT),
    case(
        "sparse_categorical_crossentropy", randint(2, 3, high=4), randn(2, 3, 4), from_logits=True
    ),
    case("sparse_categorical_crossentropy", randint(2, 3, high=4), randn(2, 4, 3), True, 1),
    case("psnr", uniform(2, 8, 8, 3), uniform(2, 8, 8, 3), 1.0),
    case("psnr", uniform(4, 4) * 255, uniform(4, 4) * 255, max_val=255.0),
    case("psnr", randint(4, 4, high=255), randint(4, 4, high=255), 255),
]

CTC_TARGET = np.array([[1, 2, 2, 0], [3, 1, 0, 0]], "int32")
CTC_LOGITS = randn(2, 8, 5) * 2
CTC = [
    # The CTC recursions sum in log space over many paths: allow for float32 reordering.
    case("ctc_loss", CTC_TARGET, CTC_LOGITS, i32([3, 2]), i32([8, 6])).tol(1e-4),
    case(
        "ctc_loss",
        CTC_TARGET + 1,
        CTC_LOGITS,
        np.array([3, 2], "int32"),
        np.array([8, 8], "int32"),
        mask_index=4,
    ).tol(1e-4),
    case(
        "ctc_loss",
        np.array([[2, 2]], "int32"),
        randn(1, 5, 4),
        np.array([2], "int32"),
        np.array([5], "int32"),
    ).tol(1e-4),
    case("ctc_decode", CTC_LOGITS, np.array([8, 6], "int32")),
    case("ctc_decode", CTC_LOGITS, np.array([8, 5], "int32"), merge_repeated=False),
    case("ctc_decode", CTC_LOGITS, np.array([8, 8], "int32"), "greedy", mask_index=4),
    case(
        "ctc_decode",
        CTC_LOGITS,
        np.array([8, 7], "int32"),
        strategy="beam_search",
        beam_width=4,
        top_paths=2,
    ).tol(1e-4),
]

Q, K, V = randn(2, 4, 2, 8), randn(2, 5, 2, 8), randn(2, 5, 2, 8)
ATTENTION = [
    case("dot_product_attention", Q, K, V),
    case("dot_product_attention", Q, K, V, scale=0.5),
    case("dot_product_attention", Q, K, V, bias=randn(2, 2, 4, 5)),
    case("dot_product_attention", Q, K, V, randn(1, 1, 4, 5), None, 0.3),
    case("dot_product_attention", Q, K, V, mask=randn(2, 1, 4, 5) > -0.5),
    case("dot_product_attention", Q, randn(2, 4, 2, 8), randn(2, 4, 2, 8), is_causal=True),
    case("dot_product_attention", Q, K, V, is_causal=True),
    case("dot_product_attention", randn(1, 3, 4, 8), randn(1, 5, 2, 8), randn(1, 5, 2, 8)),  # GQA
    case(
        "dot_product_attention",
        randn(1, 3, 4, 8),
        randn(1, 5, 1, 8),
        randn(1, 5, 1, 8),
        mask=np.tril(np.ones((3, 5), bool)),
        flash_attention=False,
    ),
    case(
        "dot_product_attention", Q.astype("float16"), K.astype("float16"), V.astype("float16")
    ).tol(5e-3),
    # a mask or bias of rank below 2 broadcasts over the keys like any other
    case("dot_product_attention", Q, K, V, mask=np.array([True, False, True, True, False])),
    case("dot_product_attention", Q, K, V, bias=randn(5)),
    case("dot_product_attention", Q, K, V, randn(5), randn(5) > 0, is_causal=True),
    case("dot_product_attention", Q, K, V, bias=np.float32(0.5), mask=np.array(True)),
    case("dot_product_attention", Q, K, V, mask=randn(5) > 0, flash_attention=False),
]

MISC = [
    case("polar", uniform(2, 3), randn(2, 3)),
    case("polar", np.array([1.0, 2.0], "float32"), np.array([0.0, np.pi / 2], "float32")),
    case("polar", uniform(3).astype("float64"), randn(3).astype("float64")),
]

CASES = ACTIVATION + ENCODING + CONV + SPACE + NORMALIZATION + LOSSES + CTC + ATTENTION + MISC
TESTED = ops_in(CASES)


@pytest.mark.parametrize("c", params(CASES))
def test_parity(c):
    c.run()
