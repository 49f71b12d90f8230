"""Intersection-over-union metrics for segmentation, from a weighted confusion matrix.

For a class, IoU = true positives / (true positives + false positives + false negatives); the
metrics average it over target classes that occurred (in labels or predictions).
"""

from tripod.backends import active, config, dtypes
from tripod.training.losses.loss import match_ranks
from tripod.training.metrics.metric import Metric
from tripod.training.metrics.shapes import broadcast_weights

ops = active()


class IoU(Metric):
    """The mean IoU over `target_class_ids`, accumulated in a (num_classes, num_classes)
    confusion matrix (rows: labels, columns: predictions).

    Labels and predictions are class ids (`sparse_y_true`/`sparse_y_pred`) or scores along
    `axis` (then their argmax counts). Entries labelled `ignore_class` are left out.
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(dtype=dtype, name=name)
        target_class_ids = [int(i) for i in target_class_ids]
        if any(not 0 <= i < num_classes for i in target_class_ids):
            raise ValueError(
                f"Target class ids must lie in [0, num_classes={num_classes}); received {target_class_ids}."
            )
        self.num_classes = num_classes
        self.target_class_ids = target_class_ids
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable(
            (num_classes, num_classes), "zeros", name="total_confusion_matrix"
        )

    def _class_ids(self, y_true, y_pred):
        """Integer labels and predicted classes, as given or by argmax."""
        y_true = ops.convert_to_tensor(y_true)
        y_pred = ops.convert_to_tensor(y_pred)
        if not self.sparse_y_true:
            y_true = ops.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = ops.argmax(y_pred, axis=self.axis)
        return ops.cast(y_true, "int32"), ops.cast(y_pred, "int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = match_ranks(*self._class_ids(y_true, y_pred))
        weight_dtype = self.dtype if self.dtype in dtypes.FLOATS else config.floatx()
        weights = broadcast_weights(sample_weight, y_true, weight_dtype)
        y_true, y_pred, weights = (ops.reshape(x, (-1,)) for x in (y_true, y_pred, weights))
        if self.ignore_class is not None:
            weights = ops.where(
                ops.equal(y_true, self.ignore_class), ops.zeros_like(weights), weights
            )
        labels = ops.multiply(
            ops.one_hot(y_true, self.num_classes, dtype=weight_dtype), ops.expand_dims(weights, -1)
        )
        predicted = ops.one_hot(y_pred, self.num_classes, dtype=weight_dtype)
        self.total_cm.assign_add(
            ops.cast(ops.matmul(ops.transpose(labels), predicted), self.total_cm.dtype)
        )

    def result(self):
        result_dtype = self.dtype if self.dtype in dtypes.FLOATS else config.floatx()
        matrix = ops.cast(self.total_cm, result_dtype)
        true_positives = ops.diagonal(matrix)
        union = ops.subtract(
            ops.add(ops.sum(matrix, axis=0), ops.sum(matrix, axis=1)), true_positives
        )
        true_positives = ops.take(true_positives, self.target_class_ids)
        union = ops.take(union, self.target_class_ids)
        occurred = ops.sum(ops.cast(ops.not_equal(union, 0.0), result_dtype))
        return ops.divide_no_nan(ops.sum(ops.divide_no_nan(true_positives, union)), occurred)

    def get_config(self):
        return {
            **super().get_config(),
            "num_classes": self.num_classes,
            "target_class_ids": self.target_class_ids,
            "ignore_class": self.ignore_class,
            "sparse_y_true": self.sparse_y_true,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class BinaryIoU(IoU):
    """IoU of binary labels against predictions thresholded at `threshold` (>= counts as 1)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def _class_ids(self, y_true, y_pred):
        y_pred = ops.greater_equal(ops.convert_to_tensor(y_pred), self.threshold)
        return ops.cast(y_true, "int32"), ops.cast(y_pred, "int32")

    def get_config(self):
        return {
            "name": self.name,
            "dtype": self.dtype,
            "target_class_ids": self.target_class_ids,
            "threshold": self.threshold,
        }


class MeanIoU(IoU):
    """The IoU averaged over every class."""

    def __init__(
        self,
        num_classes,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(
            num_classes,
            list(range(num_classes)),
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=sparse_y_true,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        config = super().get_config()
        del config["target_class_ids"]
        return config


class OneHotIoU(IoU):
    """IoU with one-hot labels (and scores as predictions unless `sparse_y_pred`)."""

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_pred=False,
        axis=-1,
    ):
        super().__init__(
            num_classes,
            target_class_ids,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=False,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class OneHotMeanIoU(MeanIoU):
    """Mean IoU with one-hot labels (and scores as predictions unless `sparse_y_pred`)."""

    def __init__(
        self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1
    ):
        super().__init__(
            num_classes,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=False,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config
