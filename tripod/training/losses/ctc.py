"""The CTC loss between padded integer label sequences and per-step logits."""

from tripod.backends import active
from tripod.training.losses.loss import BuiltinLoss, as_float

ops = active()


def ctc(y_true, y_pred):
    """CTC loss per sequence: `y_true` (batch, max_label_length) integer labels with 0 as the
    blank/padding, `y_pred` (batch, steps, classes) unnormalized logits using every step."""
    y_pred = as_float(y_pred)
    labels = ops.cast(y_true, "int32")
    if len(ops.shape(labels)) != 2 or len(ops.shape(y_pred)) != 3:
        raise ValueError(
            f"ctc: y_true must be (batch, max_label_length) and y_pred (batch, steps, classes), "
            f"received shapes {tuple(ops.shape(labels))} and {tuple(ops.shape(y_pred))}."
        )
    label_length = ops.sum(ops.cast(ops.not_equal(labels, 0), "int32"), axis=-1)
    steps = ops.sum(ops.ones_like(y_pred[:, :, 0], dtype="int32"), axis=-1)
    return ops.ctc_loss(labels, y_pred, label_length, steps, mask_index=0)


class CTC(BuiltinLoss):
    """The Connectionist Temporal Classification loss (`ctc`); class 0 is the blank."""

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)
