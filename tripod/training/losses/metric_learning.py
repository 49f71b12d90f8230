"""Metric-learning losses over embeddings: the Circle loss."""

from tripod.backends import active
from tripod.training.losses.loss import BuiltinLoss, as_float

ops = active()


def _label_vector(labels):
    """Labels as a vector, a trailing size-1 axis dropped."""
    labels = ops.convert_to_tensor(labels)
    shape = ops.shape(labels)
    return ops.squeeze(labels, -1) if len(shape) == 2 and shape[-1] == 1 else labels


def _pairs(labels, ref_labels, remove_diagonal):
    """(positive, negative) pair masks: same label (self-pairs dropped if asked), other label."""
    labels = _label_vector(labels)
    ref_labels = ops.cast(_label_vector(ref_labels), ops.dtype(labels))
    same = ops.equal(ops.expand_dims(labels, 1), ops.expand_dims(ref_labels, 0))
    positive = same
    if remove_diagonal:
        rows, columns = ops.shape(same)
        positive = ops.logical_and(same, ops.logical_not(ops.eye(rows, columns, dtype="bool")))
    return positive, ops.logical_not(same)


def _masked_logsumexp(logits, mask):
    """`log(sum(exp(logits)))` over each row's masked entries, and whether a row has any.

    Masked-out entries never reach `exp`, so their values cannot overflow or poison gradients.
    """
    floor = ops.min(logits, axis=-1, keepdims=True)
    row_max = ops.max(ops.where(mask, logits, floor), axis=-1, keepdims=True)
    shifted = ops.where(mask, ops.subtract(logits, row_max), ops.zeros_like(logits))
    total = ops.sum(ops.where(mask, ops.exp(shifted), ops.zeros_like(logits)), axis=-1)
    present = ops.any(mask, axis=-1)
    total = ops.where(present, total, ops.ones_like(total))
    return ops.add(ops.squeeze(row_max, -1), ops.log(total)), present


def circle(
    y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4
):
    """The Circle loss of each embedding in `y_pred` (batch, dim), labelled by `y_true`, against
    the reference embeddings (`y_pred` itself by default); rows without a same-label or an
    other-label reference give 0. Similarities are dot products, capped at 1."""
    y_pred = as_float(y_pred)
    ref_embeddings = (
        y_pred if ref_embeddings is None else ops.cast(ref_embeddings, ops.dtype(y_pred))
    )
    positive, negative = _pairs(
        y_true, y_true if ref_labels is None else ref_labels, remove_diagonal
    )
    similarity = ops.minimum(ops.matmul(y_pred, ops.transpose(ref_embeddings)), 1.0)
    positive_weight = ops.relu(ops.subtract(1.0 + margin, similarity))
    negative_weight = ops.relu(ops.add(similarity, margin))
    positive_logits = ops.multiply(
        -gamma, ops.multiply(positive_weight, ops.subtract(similarity, 1.0 - margin))
    )
    negative_logits = ops.multiply(
        gamma, ops.multiply(negative_weight, ops.subtract(similarity, margin))
    )
    positive_lse, has_positive = _masked_logsumexp(positive_logits, positive)
    negative_lse, has_negative = _masked_logsumexp(negative_logits, negative)
    loss = ops.softplus(ops.add(positive_lse, negative_lse))
    return ops.where(ops.logical_and(has_positive, has_negative), loss, ops.zeros_like(loss))


class Circle(BuiltinLoss):
    """The Circle loss between integer labels and L2-normalized embeddings; the batch mean counts
    only the samples with at least one other same-label sample."""

    def __init__(
        self,
        gamma=80.0,
        margin=0.4,
        remove_diagonal=True,
        reduction="sum_over_batch_size",
        name="circle",
        dtype=None,
    ):
        super().__init__(
            circle,
            name=name,
            reduction=reduction,
            dtype=dtype,
            gamma=gamma,
            margin=margin,
            remove_diagonal=remove_diagonal,
        )

    def _loss_mask(self, y_true, y_pred):
        positive, _ = _pairs(y_true, y_true, self._fn_kwargs["remove_diagonal"])
        return ops.any(positive, axis=-1)
