"""What `compile()` turns its loss and metric arguments into, for any output structure.

A model's outputs may be one tensor, a list or a dict; `loss` and `metrics` may be given once
(applied to every output), per output as a list, or per output name as a dict — as in Keras 3.
"""

from tripod.backends import active
from tripod.backends.common import tree
from tripod.saving import serialization
from tripod.training import losses as losses_module
from tripod.training import metrics as metrics_module

ops = active()


def loss_tracker():
    """The running mean of the loss that fit reports as `loss`."""
    return metrics_module.Mean(name="loss")


def serializable(structure):
    """Metric/loss arguments with objects replaced by their configs (strings stay)."""
    if structure is None or isinstance(structure, str):
        return structure
    if isinstance(structure, (list, tuple)):
        return [serializable(s) for s in structure]
    if isinstance(structure, dict):
        return {k: serializable(v) for k, v in structure.items()}
    return serialization.serialize_keras_object(structure)


def serialize_loss(loss):
    return serializable(loss)


def deserialize_loss(config):
    """A loss argument back from `serializable` form."""
    if isinstance(config, list):
        return [deserialize_loss(c) for c in config]
    if isinstance(config, dict) and "class_name" not in config:
        return {k: deserialize_loss(v) for k, v in config.items()}
    return losses_module.get(config) if config is not None else None


def _as_loss(identifier):
    loss = losses_module.get(identifier)
    if loss is not None and not isinstance(loss, losses_module.Loss):
        loss = losses_module.LossFunctionWrapper(loss, name=getattr(loss, "__name__", None))
    return loss


def _per_output(argument, names, count, what):
    """`argument` spread over `count` outputs: one value for all, a list, or a dict by name."""
    if isinstance(argument, dict):
        if names is None:
            raise ValueError(f"{what} given as a dict needs a model with named outputs.")
        unknown = set(argument) - set(names)
        if unknown:
            raise ValueError(
                f"{what} names unknown outputs {sorted(unknown)}; the outputs are {names}."
            )
        return [argument.get(n) for n in names]
    if isinstance(argument, (list, tuple)) and count > 1:
        if len(argument) != count:
            raise ValueError(
                f"{what} has {len(argument)} entries but the model has {count} outputs."
            )
        return list(argument)
    if isinstance(argument, (list, tuple)) and count == 1 and what == "loss":
        if len(argument) != 1:
            raise ValueError(f"loss has {len(argument)} entries but the model has 1 output.")
        return list(argument)
    return [argument] * count


def _by_name(values, names, what):
    """A dict of per-output values as a list in the outputs' order (None where a key is absent);
    a key naming no output is an error, never silently paired with another output."""
    unknown = [k for k in values if k not in names]
    if unknown:
        raise ValueError(
            f"{what} has keys {unknown} that name no model output; the outputs are {list(names)}."
        )
    return [values.get(n) for n in names]


def _flat_targets(y_true, y_pred, names):
    """y_true flattened in the order of y_pred's outputs (a dict y_true is matched by name)."""
    flat_pred = tree.flatten(y_pred)
    if isinstance(y_true, dict) and names and len(names) == len(flat_pred):
        return _by_name(y_true, names, "y"), flat_pred
    flat_true = tree.flatten(y_true) if tree.is_nested(y_true) else [y_true]
    if len(flat_true) != len(flat_pred):
        raise ValueError(
            f"The model has {len(flat_pred)} outputs but the targets hold {len(flat_true)} arrays."
        )
    return flat_true, flat_pred


def _flat_batch(y_true, y_pred, sample_weight, names):
    """(targets, outputs, sample weights) as lists in the order of y_pred's outputs."""
    if not (tree.is_nested(y_true) or tree.is_nested(y_pred) or tree.is_nested(sample_weight)):
        return (
            [y_true],
            [y_pred],
            [sample_weight],
        )  # one output given as tensors: nothing to flatten
    flat_true, flat_pred = _flat_targets(y_true, y_pred, names)
    if isinstance(sample_weight, dict) and names and len(names) == len(flat_pred):
        weights = _by_name(sample_weight, names, "sample_weight")
    elif tree.is_nested(sample_weight):
        weights = tree.flatten(sample_weight)
    else:
        weights = [sample_weight] * len(flat_pred)
    return flat_true, flat_pred, weights


def _check_target(target, y_true, index, names):
    """A clear error when a dict of targets has no entry for an output that needs one."""
    if target is None and isinstance(y_true, dict):
        raise ValueError(
            f"y has no target for output '{names[index] if names else index}', which has a loss "
            f"or metrics; y's keys are {list(y_true)}, the outputs are {names}."
        )


class CompileLoss:
    """The total loss: the weighted sum over outputs of each output's loss."""

    def __init__(self, loss, loss_weights=None, output_names=None):
        self.loss_argument = loss
        self.loss_weights = loss_weights
        self.output_names = output_names
        self.active = loss is not None
        self.built = False
        self.losses = []
        self.weights = []
        self._trackers = {}

    def build(self, y_true, y_pred):
        if self.built or not self.active:
            self.built = True
            return
        names = sorted(y_pred) if isinstance(y_pred, dict) else self.output_names
        count = len(tree.flatten(y_pred))
        self.losses = [
            _as_loss(l) if l is not None else None
            for l in _per_output(self.loss_argument, names, count, "loss")
        ]
        weights = self.loss_weights
        self.weights = (
            [1.0] * count
            if weights is None
            else [
                1.0 if w is None else float(w)
                for w in _per_output(weights, names, count, "loss_weights")
            ]
        )
        self._names = names
        with_loss = [i for i, loss in enumerate(self.losses) if loss is not None]
        if len(with_loss) > 1:  # several losses: each output's is reported too, as in Keras
            self._trackers = {
                i: metrics_module.Mean(name=f"{self._output_name(i)}_loss") for i in with_loss
            }
        self.built = True

    def _output_name(self, index):
        return self._names[index] if self._names else f"output_{index}"

    @property
    def metrics(self):
        """The running means of each output's (unweighted) loss, when there are several."""
        return list(self._trackers.values())

    def __call__(self, y_true, y_pred, sample_weight=None):
        if not self.built:
            self.build(y_true, y_pred)
        flat_true, flat_pred, weights = _flat_batch(y_true, y_pred, sample_weight, self._names)
        total = None
        for i, (loss, w, yt, yp, sw) in enumerate(
            zip(self.losses, self.weights, flat_true, flat_pred, weights)
        ):
            if loss is None:
                continue
            _check_target(yt, y_true, i, self._names)
            if yt is None:
                continue
            value = loss(yt, yp, sample_weight=sw)
            if i in self._trackers:
                self._trackers[i].update_state(value, sample_weight=ops.shape(yp)[0])
            value = value if w == 1.0 else ops.multiply(value, w)
            total = value if total is None else ops.add(total, value)
        return total


def _resolve_metric(identifier, y_true, y_pred, loss):
    """A Metric object for `identifier`; "accuracy" and "crossentropy" pick their variant from
    the loss and the shapes, as in Keras."""
    if isinstance(identifier, str) and identifier in ("accuracy", "acc", "crossentropy", "ce"):
        kind = "accuracy" if identifier in ("accuracy", "acc") else "crossentropy"
        loss_name = getattr(loss, "name", "") or ""
        pred_shape = tuple(y_pred.shape)
        true_shape = tuple(y_true.shape) if y_true is not None else pred_shape
        if "binary" in loss_name or (pred_shape and pred_shape[-1] == 1):
            variant = "binary"
        elif (
            len(true_shape) < len(pred_shape)
            or (true_shape and true_shape[-1] == 1)
            or "sparse" in loss_name
        ):
            variant = "sparse_categorical"
        else:
            variant = "categorical"
        metric = metrics_module.get(f"{variant}_{kind}")
        metric.name = identifier
        return metric
    metric = metrics_module.get(identifier)
    if not isinstance(metric, metrics_module.Metric):
        metric = metrics_module.MeanMetricWrapper(metric, name=getattr(metric, "__name__", None))
    if isinstance(identifier, str):
        metric.name = identifier  # Keras reports a metric under the name it was asked by
    return metric


class CompileMetrics:
    """Every compiled metric, each bound to one output; weighted ones also get sample weights."""

    def __init__(self, metrics=None, weighted_metrics=None, output_names=None):
        self.metrics_argument = metrics
        self.weighted_argument = weighted_metrics
        self.output_names = output_names
        self.built = False
        self._bound = []

    @property
    def metrics(self):
        return [m for m, _, _ in self._bound]

    @property
    def wanted(self):
        """Whether any metric was asked for."""
        return self.metrics_argument is not None or self.weighted_argument is not None

    def build(self, y_true, y_pred, loss=None):
        if self.built or y_pred is None:
            self.built = True
            return
        names = sorted(y_pred) if isinstance(y_pred, dict) else self.output_names
        flat_true, flat_pred = (
            _flat_targets(y_true, y_pred, names)
            if y_true is not None
            else ([None] * len(tree.flatten(y_pred)), tree.flatten(y_pred))
        )
        count = len(flat_pred)
        losses = getattr(loss, "losses", None) or [None] * count
        for argument, weighted in ((self.metrics_argument, False), (self.weighted_argument, True)):
            if argument is None:
                continue
            per_output = (
                _per_output(argument, names, count, "metrics")
                if isinstance(argument, dict)
                or (
                    count > 1
                    and isinstance(argument, (list, tuple))
                    and argument
                    and isinstance(argument[0], (list, tuple, dict))
                )
                else [argument] * count
            )
            for index, entries in enumerate(per_output):
                if entries is not None:
                    _check_target(flat_true[index], y_true, index, names)
                for identifier in tree.flatten(entries) if entries is not None else []:
                    metric = _resolve_metric(
                        identifier, flat_true[index], flat_pred[index], losses[index]
                    )
                    if count > 1 and names:
                        metric.name = f"{names[index]}_{metric.name}"
                    if (
                        weighted
                        and argument is self.weighted_argument
                        and self.metrics_argument is not None
                    ):
                        metric.name = (
                            f"weighted_{metric.name}"
                            if any(m.name == metric.name for m in self.metrics)
                            else metric.name
                        )
                    if not getattr(metric, "built", True) and flat_true[index] is not None:
                        # Metrics sized by the data (F1Score, R2Score) get their variables now,
                        # before a compiled step traces them.
                        metric.build(tuple(flat_true[index].shape), tuple(flat_pred[index].shape))
                    self._bound.append((metric, index, weighted))
        self._names = names
        self.built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self._bound:
            return
        flat_true, flat_pred, weights = _flat_batch(y_true, y_pred, sample_weight, self._names)
        for metric, index, weighted in self._bound:
            metric.update_state(
                flat_true[index],
                flat_pred[index],
                sample_weight=weights[index] if weighted else None,
            )


def unique_name(name, taken):
    """`name`, or `name_1`, `name_2`, ... where a metric reported before took it: Keras's log
    keys for metrics of one name (three keras-rs ranking metrics are each called "mean")."""
    index, unique = 0, name
    while unique in taken:
        index += 1
        unique = f"{name}_{index}"
    return unique
