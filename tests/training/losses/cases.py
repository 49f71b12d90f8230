"""Fixed inputs and the (tripod loss, reference, inputs, options) cases the loss tests share."""

import numpy as np

from tests.training.losses import reference as R
from tripod.training import losses

_rng = np.random.default_rng(7)


def _normal(*shape):
    return _rng.standard_normal(shape).astype("float32")


def _uniform(*shape, low=0.05, high=0.95):
    return _rng.uniform(low, high, shape).astype("float32")


def _unit_rows(x):
    return (x / np.linalg.norm(x, axis=-1, keepdims=True)).astype("float32")


REAL = (_normal(4, 5), _normal(4, 5))
POSITIVE = (_uniform(4, 5, low=0.1, high=3.0), _uniform(4, 5, low=0.1, high=3.0))
UNIT = (_uniform(4, 5), _uniform(4, 5))
BINARY = ((_rng.random((4, 5)) > 0.5).astype("float32"), _uniform(4, 5))
BINARY_LOGITS = (BINARY[0], _normal(4, 5))
SIGNED = (2 * BINARY[0] - 1, _normal(4, 5))
ONE_HOT = (np.eye(5, dtype="float32")[_rng.integers(0, 5, 4)], _uniform(4, 5))
ONE_HOT_LOGITS = (ONE_HOT[0], _normal(4, 5))
LABELS = _rng.integers(0, 5, 4).astype("int32")
LABELS[1] = 2
SPARSE = (LABELS, _uniform(4, 5))
SPARSE_LOGITS = (LABELS, _normal(4, 5))
PROBS = (LABELS, (SPARSE[1] / SPARSE[1].sum(-1, keepdims=True)).astype("float32"))
MASKS = (_uniform(2, 3, 4, 1, low=0.0, high=1.0), _uniform(2, 3, 4, 1, low=0.0, high=1.0))
EMBEDDINGS = (np.array([0, 1, 0, 2, 1, 0], "int32"), _unit_rows(_normal(6, 4)))
SEQUENCES = (np.array([[1, 2, 3, 0], [4, 4, 0, 0], [2, 0, 0, 0]], "int32"), _normal(3, 8, 5))


def _t(x):
    return np.ascontiguousarray(np.swapaxes(x, 0, -1))


#: (id, tripod function, reference function, (y_true, y_pred), options)
FUNCTION_CASES = [
    ("mse", losses.mean_squared_error, R.mean_squared_error, REAL, {}),
    (
        "mse_labels_column",
        losses.mean_squared_error,
        R.mean_squared_error,
        (REAL[0][:, :1], REAL[1][:, 0]),
        {},
    ),
    (
        "mse_preds_column",
        losses.mean_squared_error,
        R.mean_squared_error,
        (REAL[0][:, 0], REAL[1][:, :1]),
        {},
    ),
    ("mae", losses.mean_absolute_error, R.mean_absolute_error, REAL, {}),
    ("mape", losses.mean_absolute_percentage_error, R.mean_absolute_percentage_error, REAL, {}),
    ("msle", losses.mean_squared_logarithmic_error, R.mean_squared_logarithmic_error, POSITIVE, {}),
    (
        "msle_negative",
        losses.mean_squared_logarithmic_error,
        R.mean_squared_logarithmic_error,
        REAL,
        {},
    ),
    ("huber", losses.huber, R.huber, REAL, {}),
    ("huber_delta", losses.huber, R.huber, (3 * REAL[0], REAL[1]), {"delta": 0.5}),
    ("log_cosh", losses.log_cosh, R.log_cosh, REAL, {}),
    ("cosine", losses.cosine_similarity, R.cosine_similarity, REAL, {}),
    ("cosine_axis0", losses.cosine_similarity, R.cosine_similarity, REAL, {"axis": 0}),
    ("kld", losses.kl_divergence, R.kl_divergence, UNIT, {}),
    ("poisson", losses.poisson, R.poisson, POSITIVE, {}),
    ("hinge_01", losses.hinge, R.hinge, BINARY_LOGITS, {}),
    ("hinge_signed", losses.hinge, R.hinge, SIGNED, {}),
    ("hinge_real", losses.hinge, R.hinge, REAL, {}),
    ("squared_hinge_01", losses.squared_hinge, R.squared_hinge, BINARY_LOGITS, {}),
    ("squared_hinge_signed", losses.squared_hinge, R.squared_hinge, SIGNED, {}),
    ("categorical_hinge", losses.categorical_hinge, R.categorical_hinge, ONE_HOT_LOGITS, {}),
    ("bce", losses.binary_crossentropy, R.binary_crossentropy, BINARY, {}),
    (
        "bce_logits",
        losses.binary_crossentropy,
        R.binary_crossentropy,
        BINARY_LOGITS,
        {"from_logits": True},
    ),
    (
        "bce_smoothing",
        losses.binary_crossentropy,
        R.binary_crossentropy,
        BINARY,
        {"label_smoothing": 0.2},
    ),
    (
        "bce_axis0",
        losses.binary_crossentropy,
        R.binary_crossentropy,
        BINARY_LOGITS,
        {"from_logits": True, "label_smoothing": 0.1, "axis": 0},
    ),
    ("bfce", losses.binary_focal_crossentropy, R.binary_focal_crossentropy, BINARY, {}),
    (
        "bfce_logits",
        losses.binary_focal_crossentropy,
        R.binary_focal_crossentropy,
        BINARY_LOGITS,
        {"from_logits": True, "gamma": 1.5},
    ),
    (
        "bfce_balanced",
        losses.binary_focal_crossentropy,
        R.binary_focal_crossentropy,
        BINARY,
        {"apply_class_balancing": True, "alpha": 0.3, "label_smoothing": 0.2},
    ),
    (
        "bfce_axis0",
        losses.binary_focal_crossentropy,
        R.binary_focal_crossentropy,
        BINARY_LOGITS,
        {"from_logits": True, "apply_class_balancing": True, "axis": 0},
    ),
    ("cce", losses.categorical_crossentropy, R.categorical_crossentropy, ONE_HOT, {}),
    (
        "cce_logits",
        losses.categorical_crossentropy,
        R.categorical_crossentropy,
        ONE_HOT_LOGITS,
        {"from_logits": True},
    ),
    (
        "cce_smoothing",
        losses.categorical_crossentropy,
        R.categorical_crossentropy,
        ONE_HOT,
        {"label_smoothing": 0.2},
    ),
    (
        "cce_axis0",
        losses.categorical_crossentropy,
        R.categorical_crossentropy,
        tuple(map(_t, ONE_HOT_LOGITS)),
        {"from_logits": True, "label_smoothing": 0.3, "axis": 0},
    ),
    ("cfce", losses.categorical_focal_crossentropy, R.categorical_focal_crossentropy, ONE_HOT, {}),
    (
        "cfce_logits",
        losses.categorical_focal_crossentropy,
        R.categorical_focal_crossentropy,
        ONE_HOT_LOGITS,
        {"from_logits": True, "alpha": 0.5, "gamma": 3.0},
    ),
    (
        "cfce_smoothing_axis0",
        losses.categorical_focal_crossentropy,
        R.categorical_focal_crossentropy,
        tuple(map(_t, ONE_HOT)),
        {"label_smoothing": 0.1, "axis": 0},
    ),
    ("scce", losses.sparse_categorical_crossentropy, R.sparse_categorical_crossentropy, SPARSE, {}),
    (
        "scce_column",
        losses.sparse_categorical_crossentropy,
        R.sparse_categorical_crossentropy,
        (LABELS[:, None], SPARSE[1]),
        {},
    ),
    (
        "scce_logits",
        losses.sparse_categorical_crossentropy,
        R.sparse_categorical_crossentropy,
        SPARSE_LOGITS,
        {"from_logits": True},
    ),
    (
        "scce_ignore",
        losses.sparse_categorical_crossentropy,
        R.sparse_categorical_crossentropy,
        SPARSE,
        {"ignore_class": 2},
    ),
    (
        "scce_ignore_logits",
        losses.sparse_categorical_crossentropy,
        R.sparse_categorical_crossentropy,
        (LABELS[:, None], SPARSE_LOGITS[1]),
        {"from_logits": True, "ignore_class": 2},
    ),
    (
        "scce_axis0",
        losses.sparse_categorical_crossentropy,
        R.sparse_categorical_crossentropy,
        (LABELS, _t(SPARSE_LOGITS[1])),
        {"from_logits": True, "axis": 0},
    ),
    (
        "cgce",
        losses.categorical_generalized_cross_entropy,
        R.categorical_generalized_cross_entropy,
        PROBS,
        {"q": 0.5},
    ),
    (
        "cgce_column",
        losses.categorical_generalized_cross_entropy,
        R.categorical_generalized_cross_entropy,
        (LABELS[:, None], PROBS[1]),
        {"q": 0.7},
    ),
    ("dice", losses.dice, R.dice, MASKS, {}),
    ("dice_axis", losses.dice, R.dice, MASKS, {"axis": (1, 2, 3)}),
    ("tversky", losses.tversky, R.tversky, MASKS, {}),
    (
        "tversky_axis",
        losses.tversky,
        R.tversky,
        MASKS,
        {"alpha": 0.3, "beta": 0.7, "axis": (1, 2, 3)},
    ),
    ("circle", losses.circle, R.circle, EMBEDDINGS, {}),
    (
        "circle_options",
        losses.circle,
        R.circle,
        EMBEDDINGS,
        {"gamma": 2.0, "margin": 0.25, "remove_diagonal": False},
    ),
    (
        "circle_unnormalized",
        losses.circle,
        R.circle,
        (EMBEDDINGS[0], 2 * EMBEDDINGS[1]),
        {"gamma": 3.0},
    ),
    (
        "circle_references",
        losses.circle,
        R.circle,
        (EMBEDDINGS[0][:2], EMBEDDINGS[1][:2]),
        {"ref_labels": EMBEDDINGS[0], "ref_embeddings": EMBEDDINGS[1], "gamma": 3.0},
    ),
    ("ctc", losses.ctc, R.ctc, SEQUENCES, {}),
]


def _sparse_mask(options):
    return lambda t, p: (
        None
        if options.get("ignore_class") is None
        else R.sparse_mask(t, p, options["ignore_class"])
    )


def _circle_mask(options):
    return lambda t, p: R.circle_pairs(t, t, options.get("remove_diagonal", True))[0].any(-1)


def _no_mask(options):
    return lambda t, p: None


#: (id, class, reference function, (y_true, y_pred), options, mask maker)
CLASS_CASES = [
    ("MeanSquaredError", losses.MeanSquaredError, R.mean_squared_error, REAL, {}, _no_mask),
    ("MeanAbsoluteError", losses.MeanAbsoluteError, R.mean_absolute_error, REAL, {}, _no_mask),
    (
        "MeanAbsolutePercentageError",
        losses.MeanAbsolutePercentageError,
        R.mean_absolute_percentage_error,
        REAL,
        {},
        _no_mask,
    ),
    (
        "MeanSquaredLogarithmicError",
        losses.MeanSquaredLogarithmicError,
        R.mean_squared_logarithmic_error,
        POSITIVE,
        {},
        _no_mask,
    ),
    ("Huber", losses.Huber, R.huber, (3 * REAL[0], REAL[1]), {"delta": 0.7}, _no_mask),
    ("LogCosh", losses.LogCosh, R.log_cosh, REAL, {}, _no_mask),
    ("CosineSimilarity", losses.CosineSimilarity, R.cosine_similarity, REAL, {"axis": 0}, _no_mask),
    ("KLDivergence", losses.KLDivergence, R.kl_divergence, UNIT, {}, _no_mask),
    ("Poisson", losses.Poisson, R.poisson, POSITIVE, {}, _no_mask),
    ("Hinge", losses.Hinge, R.hinge, BINARY_LOGITS, {}, _no_mask),
    ("SquaredHinge", losses.SquaredHinge, R.squared_hinge, SIGNED, {}, _no_mask),
    (
        "CategoricalHinge",
        losses.CategoricalHinge,
        R.categorical_hinge,
        ONE_HOT_LOGITS,
        {},
        _no_mask,
    ),
    (
        "BinaryCrossentropy",
        losses.BinaryCrossentropy,
        R.binary_crossentropy,
        BINARY,
        {"label_smoothing": 0.1},
        _no_mask,
    ),
    (
        "BinaryCrossentropy_logits",
        losses.BinaryCrossentropy,
        R.binary_crossentropy,
        BINARY_LOGITS,
        {"from_logits": True, "axis": 0},
        _no_mask,
    ),
    (
        "BinaryFocalCrossentropy",
        losses.BinaryFocalCrossentropy,
        R.binary_focal_crossentropy,
        BINARY_LOGITS,
        {
            "from_logits": True,
            "apply_class_balancing": True,
            "alpha": 0.4,
            "gamma": 1.0,
            "label_smoothing": 0.1,
        },
        _no_mask,
    ),
    (
        "CategoricalCrossentropy",
        losses.CategoricalCrossentropy,
        R.categorical_crossentropy,
        ONE_HOT,
        {"label_smoothing": 0.2},
        _no_mask,
    ),
    (
        "CategoricalCrossentropy_logits",
        losses.CategoricalCrossentropy,
        R.categorical_crossentropy,
        ONE_HOT_LOGITS,
        {"from_logits": True},
        _no_mask,
    ),
    (
        "CategoricalFocalCrossentropy",
        losses.CategoricalFocalCrossentropy,
        R.categorical_focal_crossentropy,
        ONE_HOT_LOGITS,
        {"from_logits": True, "alpha": 0.3, "gamma": 1.5, "label_smoothing": 0.1},
        _no_mask,
    ),
    (
        "SparseCategoricalCrossentropy",
        losses.SparseCategoricalCrossentropy,
        R.sparse_categorical_crossentropy,
        SPARSE,
        {},
        _sparse_mask,
    ),
    (
        "SparseCategoricalCrossentropy_ignore",
        losses.SparseCategoricalCrossentropy,
        R.sparse_categorical_crossentropy,
        SPARSE_LOGITS,
        {"from_logits": True, "ignore_class": 2},
        _sparse_mask,
    ),
    (
        "SparseCategoricalCrossentropy_ignore_column",
        losses.SparseCategoricalCrossentropy,
        R.sparse_categorical_crossentropy,
        (LABELS[:, None], SPARSE[1]),
        {"ignore_class": 2},
        _sparse_mask,
    ),
    (
        "CategoricalGeneralizedCrossEntropy",
        losses.CategoricalGeneralizedCrossEntropy,
        R.categorical_generalized_cross_entropy,
        PROBS,
        {"q": 0.3},
        _no_mask,
    ),
    ("Dice", losses.Dice, R.dice, MASKS, {"axis": (1, 2, 3)}, _no_mask),
    ("Dice_all_axes", losses.Dice, R.dice, MASKS, {}, _no_mask),
    (
        "Tversky",
        losses.Tversky,
        R.tversky,
        MASKS,
        {"alpha": 0.2, "beta": 0.8, "axis": (1, 2, 3)},
        _no_mask,
    ),
    ("Circle", losses.Circle, R.circle, EMBEDDINGS, {"gamma": 4.0}, _circle_mask),
    (
        "Circle_keep_diagonal",
        losses.Circle,
        R.circle,
        EMBEDDINGS,
        {"remove_diagonal": False, "margin": 0.3},
        _circle_mask,
    ),
    ("CTC", losses.CTC, R.ctc, SEQUENCES, {}, _no_mask),
]
