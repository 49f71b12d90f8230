"""`Functional`: a model defined by a graph of layer calls on symbolic tensors.

The graph is compiled once, at construction, into a flat plan: each step is one layer call
reading and writing numbered slots. Running the model walks that list — no graph search, no
dict lookups by tensor — so the per-call cost is one Python call per layer.
"""

import inspect

from tripod.backends import active
from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers.input_layer import InputLayer
from tripod.layers.layer import Layer
from tripod.layers.node import nodes_in_order
from tripod.layers.operation import Operation
from tripod.saving import registry, serialization
from tripod.training import subgraph
from tripod.training.model import Model

ops = active()


def _training_default(layer):
    """The default of `training` in `layer.call`'s signature, or a marker no value equals."""
    if not getattr(layer, "_call_has_training_arg", False):
        return _NO_DEFAULT
    default = inspect.signature(layer.call).parameters["training"].default
    return _NO_DEFAULT if default is inspect.Parameter.empty or default is None else default


_NO_DEFAULT = object()


class _Step:
    """One layer call of the plan: where its arguments come from and where its outputs go."""

    __slots__ = (
        "args",
        "fixed_training",
        "in_slots",
        "input_mask_slots",
        "kwargs",
        "last_reads",
        "layer",
        "mask_slots",
        "node",
        "out_slots",
        "simple",
    )

    def __init__(self, node, slot_of, new_masks):
        self.node = node
        self.layer = node.operation
        args, kwargs = node.arguments
        self.args, self.kwargs = args, kwargs
        self.in_slots = [
            slot_of[id(x)] for x in tree.flatten((args, kwargs)) if isinstance(x, KerasTensor)
        ]
        self.out_slots = [slot_of[id(x)] for x in node.output_tensors]
        # The common case: one tensor argument, no tensors among the keyword arguments.
        self.simple = (
            len(args) == 1 and isinstance(args[0], KerasTensor) and len(self.in_slots) == 1
        )
        # A recorded `training` equal to the layer's default (Keras files record an augmentation
        # layer's default True) yields to the model's own flag, as it does in Keras; one the
        # user chose (`base(x, training=False)` under a new head) holds.
        self.fixed_training = "training" in kwargs and kwargs["training"] == _training_default(
            self.layer
        )
        # Slots of output masks this call creates (pass-through masks already have a slot).
        self.mask_slots = [
            slot_of[id(x._keras_mask)] if id(x._keras_mask) in new_masks else None
            for x in node.output_tensors
        ]
        if not any(s is not None for s in self.mask_slots):
            self.mask_slots = None
        # Masks of the first argument's tensors, for layers whose call takes no mask.
        first = [x for x in tree.flatten(args[0]) if isinstance(x, KerasTensor)] if args else []
        self.input_mask_slots = [
            slot_of.get(id(x._keras_mask)) if x._keras_mask is not None else None for x in first
        ]
        self.last_reads = ()  # set by `mark_last_reads`

    def release(self, values):
        """Drop the tensors no later step reads, as eager code frees its intermediates."""
        for slot in self.last_reads:
            values[slot] = None

    def compute_masks(self, values):
        """Fill the slots of the masks this call creates, from the layer's compute_mask."""
        args, kwargs = self.fill(values)
        mask = kwargs.get("mask")
        if mask is None and self.input_mask_slots:
            flat = [values[s] if s is not None else None for s in self.input_mask_slots]
            mask = flat[0] if len(flat) == 1 and not tree.is_nested(self.args[0]) else flat
        masks = self.layer.compute_mask(args[0], mask)
        flat = tree.flatten(masks) if tree.is_nested(masks) else [masks] * len(self.mask_slots)
        for slot, m in zip(self.mask_slots, flat):
            if slot is not None:
                values[slot] = m

    def fill(self, values):
        """The call's (args, kwargs) with real tensors in place of the symbolic ones."""
        inputs = iter([values[s] for s in self.in_slots])
        leaves = [
            next(inputs) if isinstance(x, KerasTensor) else x
            for x in tree.flatten((self.args, self.kwargs))
        ]
        return tree.pack_sequence_as((self.args, self.kwargs), leaves)


def mark_last_reads(plan, kept_slots):
    """Give each step of `plan` the slots it is the last to read, `kept_slots` (the outputs)
    excepted: a call then holds each intermediate tensor only while a later layer needs it, so a
    deep model's forward pass reuses memory instead of growing to the sum of its activations."""
    read_later = set(kept_slots)
    for step in reversed(plan):
        reads = {*step.in_slots, *(s for s in step.input_mask_slots if s is not None)}
        step.last_reads = tuple(reads - read_later)
        read_later |= reads


class Functional(Model):
    """A model built from `inputs` and `outputs` KerasTensors (nested lists/dicts allowed)."""

    _keras_module = "keras.src.models.functional"

    def __init__(self, inputs, outputs, name=None, **kwargs):
        trainable = kwargs.pop("trainable", True)
        super().__init__(name=name, trainable=trainable, **kwargs)
        inputs, outputs = subgraph.from_input_layers(_normalize(inputs), _normalize(outputs))
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self._compile_plan()
        self.built = True

    def _compile_plan(self):
        flat_inputs = tree.flatten(self._inputs_struct)
        flat_outputs = tree.flatten(self._outputs_struct)
        for x in flat_inputs + flat_outputs:
            if not isinstance(x, KerasTensor):
                # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
                raise ValueError(  # noqa: TRY004
                    f"Functional model inputs and outputs must be KerasTensors, received {x!r}."
                )
        nodes = nodes_in_order(flat_outputs)
        slot_of, new_masks = {}, {}
        for node in nodes:
            for x in node.output_tensors:
                slot_of[id(x)] = len(slot_of)
            for x in node.output_tensors:
                mask = x._keras_mask
                if mask is not None and id(mask) not in slot_of:
                    slot_of[id(mask)] = len(slot_of)
                    new_masks[id(mask)] = node
        for x in flat_inputs:
            if x._keras_history is None or not isinstance(x._keras_history[0], InputLayer):
                raise ValueError(
                    f"Model input {x} was produced by no layer: pass `tripod.Input()` tensors "
                    "or tensors computed from them."
                )
            slot_of.setdefault(
                id(x), len(slot_of)
            )  # an input no output depends on still has a slot
        reached = {id(x) for x in flat_inputs}
        self._plan = []
        for node in nodes:
            if isinstance(node.operation, InputLayer):
                continue
            missing = [x for x in node.input_tensors if id(x) not in slot_of]
            if missing:
                raise ValueError(
                    f"Layer '{node.operation.name}' reads {missing[0]}, which the model inputs don't reach."
                )
            self._plan.append(_Step(node, slot_of, {k for k, n in new_masks.items() if n is node}))
            reached.update(id(x) for x in node.output_tensors)
        for node in nodes:
            if isinstance(node.operation, InputLayer) and id(node.outputs) not in {
                id(x) for x in flat_inputs
            }:
                raise ValueError(
                    f"The model's outputs depend on input '{node.operation.name}', which is not "
                    "among the model's inputs."
                )
        self._input_slots = [slot_of[id(x)] for x in flat_inputs]
        self._input_shapes = [tuple(x.shape) for x in flat_inputs]
        self._output_slots = [slot_of[id(x)] for x in flat_outputs]
        mark_last_reads(self._plan, self._output_slots)
        self._nodes = nodes
        # Tracked like any attribute: `_layers`, and so `weights`, lists the layers a subclass
        # assigned before this (KerasHub's backbones do), then the graph's, as Keras orders them
        self._layer_list = _keras_layer_order(nodes, flat_outputs)
        self._num_slots = len(slot_of)

    def _listed_layers(self):
        """The model's layers, inputs included, in the order the graph runs them; the op nodes
        `tripod.ops` records on symbolic tensors are not listed, as in Keras."""
        return [layer for layer in self._layer_list if type(layer) is not Operation]

    @property
    def inputs(self):
        """The symbolic inputs, flat."""
        return tree.flatten(self._inputs_struct)

    @property
    def outputs(self):
        """The symbolic outputs, flat."""
        return tree.flatten(self._outputs_struct)

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    @property
    def input_shape(self):
        return tree.map_structure(lambda x: x.shape, self._inputs_struct)

    @property
    def output_shape(self):
        return tree.map_structure(lambda x: x.shape, self._outputs_struct)

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None, mask=None):
        values = [None] * self._num_slots
        flat = self._with_input_ranks(self._flatten_inputs(inputs))
        for slot, x in zip(self._input_slots, flat):
            values[slot] = x
        for step in self._plan:
            if step.fixed_training and training is not None:
                args, kwargs = step.fill(values)
                result = step.layer(*args, **{**kwargs, "training": training})
            elif step.simple:
                result = step.layer(values[step.in_slots[0]], **step.kwargs)
            else:
                args, kwargs = step.fill(values)
                result = step.layer(*args, **kwargs)
            out_slots = step.out_slots
            if len(out_slots) == 1:
                values[out_slots[0]] = (
                    result if not tree.is_nested(result) else tree.flatten(result)[0]
                )
            else:
                for slot, y in zip(out_slots, tree.flatten(result)):
                    values[slot] = y
            if step.mask_slots is not None:
                step.compute_masks(values)
            step.release(values)
        return tree.pack_sequence_as(self._outputs_struct, [values[s] for s in self._output_slots])

    def _flatten_inputs(self, inputs):
        """The call's inputs, flat in the model's input order (a dict is matched by name)."""
        if isinstance(inputs, dict):
            return self._inputs_by_name(inputs)
        struct = self._inputs_struct
        if isinstance(struct, dict) and list(struct) != sorted(struct) and tree.is_nested(inputs):
            raise ValueError(
                f"Model '{self.name}' takes a dict of inputs keyed by {list(struct)}; received a "
                f"{type(inputs).__name__}, whose order is ambiguous. Pass a dict with these keys."
            )
        flat = tree.flatten(inputs)
        expected = len(self._input_slots)
        if len(flat) != expected:
            raise ValueError(
                f"Model '{self.name}' expects {expected} input(s), but it received {len(flat)}."
            )
        return flat

    def _with_input_ranks(self, flat):
        """The inputs, each with a trailing axis of size 1 added or dropped where that alone
        gives it its `Input`'s rank, as Keras 3 does: (N, 28, 28) data feeds `Input((28, 28, 1))`."""
        shapes = self._input_shapes
        if all(x is None or len(x.shape) == len(shape) for x, shape in zip(flat, shapes)):
            return flat
        return [_with_rank(self.name, x, shape) for x, shape in zip(flat, shapes)]

    def _inputs_by_name(self, inputs):
        """Dict inputs, flat in the model's input order: keys are the input dict's keys, or
        (inputs given as a list or one tensor) the names of the `Input`s, as in Keras 3."""
        struct = self._inputs_struct
        keyed = struct if isinstance(struct, dict) else _inputs_keyed_by_name(self.name, struct)
        if set(inputs) != set(keyed):
            missing = [k for k in keyed if k not in inputs]
            unknown = [k for k in inputs if k not in keyed]
            raise ValueError(
                f"Model '{self.name}' expects a dict of inputs with keys {list(keyed)}; received "
                f"keys {list(inputs)} (missing: {missing}, unexpected: {unknown})."
            )
        flat = tree.flatten({k: inputs[k] for k in keyed})
        if len(flat) != len(self._input_slots):
            raise ValueError(
                f"Model '{self.name}' expects {len(self._input_slots)} input(s), but the dict it "
                f"received holds {len(flat)}."
            )
        return flat if isinstance(struct, dict) else [inputs[k] for k in keyed]

    def compute_output_spec(self, inputs, training=None, mask=None):
        return tree.map_structure(lambda x: KerasTensor(x.shape, x.dtype), self._outputs_struct)

    # -- config ----------------------------------------------------------------------------------
    def get_config(self):
        """Layers with their inbound nodes, and the input/output layer references (Keras 3 schema)."""
        node_keys = {}
        for layer in self._layer_list:
            kept = [n for n in layer._inbound_nodes if n in self._nodes]
            for i, node in enumerate(kept):
                node_keys[id(node)] = i
        layers = []
        for layer in self._layer_list:
            entry = serialization.serialize_keras_object(layer)
            entry["name"] = layer.name
            entry["inbound_nodes"] = [
                _serialize_node(n, node_keys)
                for n in layer._inbound_nodes
                if id(n) in node_keys and not isinstance(layer, InputLayer)
            ]
            layers.append(entry)

        def ref(x):
            op, index, tensor_index = x._keras_history
            return [op.name, node_keys[id(op._inbound_nodes[index])], tensor_index]

        return {
            "name": self.name,
            "trainable": self.trainable,
            # Keras 3 leaves the model's own policy out here (its Sequential writes it); without
            # it a mixed_float16 model would reload float32 and compile without loss scaling.
            "dtype": serialization.serialize_keras_object(self.dtype_policy),
            "layers": layers,
            "input_layers": tree.map_structure(ref, self._inputs_struct),
            "output_layers": tree.map_structure(ref, self._outputs_struct),
        }

    @staticmethod
    def _from_graph_config(model_class, config, custom_objects=None):
        """A `model_class` model of the config's graph (`Model.from_config` decides when;
        custom objects are seen by every nested config)."""
        with registry.custom_object_scope(custom_objects or {}):
            return _rebuild_graph(model_class, config, custom_objects)


def _rebuild_graph(cls, config, custom_objects):
    """Create each layer, then replay its calls in dependency order; then `cls(inputs, outputs)`."""
    # Everything is keyed by the config entry's name, which the references use: a custom
    # layer whose get_config leaves out `name` is rebuilt under a fresh auto name.
    created, pending = {}, []
    for entry in config["layers"]:
        layer = serialization.deserialize_keras_object(entry, custom_objects)
        name = entry.get("name", layer.name)
        created[name] = layer
        pending.extend((name, layer, node) for node in entry.get("inbound_nodes", []))
    produced = {}
    for name, layer in created.items():
        if isinstance(layer, InputLayer):
            produced[(name, 0)] = layer.output
    while pending:
        progress = False
        for item in list(pending):
            name, layer, node_config = item
            args = _deserialize_node(node_config, produced)
            if args is None:
                continue
            outputs = layer(*args[0], **args[1])
            produced[(name, _calls_made(produced, name))] = outputs
            pending.remove(item)
            progress = True
        if not progress:
            raise ValueError(
                "The model config's layer graph cannot be rebuilt: some inputs are never produced."
            )

    def tensor(ref):
        name, index, tensor_index = ref
        out = produced[(name, index)]
        return tree.flatten(out)[tensor_index]

    inputs = _map_refs(tensor, config["input_layers"])
    outputs = _map_refs(tensor, config["output_layers"])
    trainable = config.get("trainable", True)
    model = cls(inputs=inputs, outputs=outputs, name=config.get("name"), trainable=trainable)
    if config.get("dtype") is not None:
        model.dtype_policy = config["dtype"]
    return model


def _inputs_keyed_by_name(model_name, struct):
    """{Input name: tensor} for inputs given as a list or one tensor (to match dict inputs)."""
    names = [x._keras_history[0].name for x in tree.flatten(struct)]
    if len(set(names)) != len(names):
        raise ValueError(
            f"Model '{model_name}' has inputs sharing a name ({names}), so a dict of inputs "
            "cannot be matched to them by name; pass a list."
        )
    return dict(zip(names, tree.flatten(struct)))


def _calls_made(produced, name):
    return sum(1 for key in produced if key[0] == name)


def _is_ref(x):
    return isinstance(x, list) and len(x) == 3 and isinstance(x[0], str) and isinstance(x[1], int)


def _map_refs(fn, structure):
    """Apply fn to each [layer name, node index, tensor index] reference in a structure."""
    if _is_ref(structure):
        return fn(structure)
    if isinstance(structure, dict):
        return {k: _map_refs(fn, v) for k, v in structure.items()}
    return [_map_refs(fn, v) for v in structure]


def _serialize_node(node, node_keys):
    def encode(x):
        if isinstance(x, KerasTensor):
            op, index, tensor_index = x._keras_history
            return {
                "class_name": "__keras_tensor__",
                "config": {
                    "shape": list(x.shape),
                    "dtype": x.dtype,
                    "keras_history": [
                        op.name,
                        node_keys.get(id(op._inbound_nodes[index]), 0),
                        tensor_index,
                    ],
                },
            }
        return serialization.serialize_keras_object(x)

    args, kwargs = node.arguments
    return {
        "args": [tree.map_structure(encode, a) for a in args],
        "kwargs": {k: tree.map_structure(encode, v) for k, v in kwargs.items()},
    }


def _deserialize_node(node_config, produced):
    """(args, kwargs) with the referenced tensors, or None while one is not produced yet."""
    missing = []

    def decode(x):
        if isinstance(x, dict) and x.get("class_name") == "__keras_tensor__":
            name, index, tensor_index = x["config"]["keras_history"]
            if (name, index) not in produced:
                missing.append(name)
                return None
            return tree.flatten(produced[(name, index)])[tensor_index]
        if isinstance(x, dict):
            if "class_name" in x:
                return serialization.deserialize_keras_object(x)
            return {k: decode(v) for k, v in x.items()}
        if isinstance(x, list):
            return [decode(v) for v in x]
        return x

    args = [decode(a) for a in node_config.get("args", [])]
    kwargs = {k: decode(v) for k, v in node_config.get("kwargs", {}).items()}
    return None if missing else (args, kwargs)


def _normalize(structure):
    """Inputs/outputs as given, with a one-element list unwrapped as Keras does."""
    if (
        isinstance(structure, (list, tuple))
        and len(structure) == 1
        and isinstance(structure[0], KerasTensor)
    ):
        return structure[0]
    if isinstance(structure, tuple):
        return list(structure)
    return structure


def _first_visits(outputs):
    """Each operation's rank in a pre-order depth-first walk from `outputs`, inputs in order
    (iterative: graphs run a thousand layers deep)."""
    ranks, done = {}, set()
    stack = [op._inbound_nodes[index] for op, index, _ in (x._keras_history for x in outputs)]
    stack.reverse()
    while stack:
        node = stack.pop()
        if id(node) in done:
            continue
        done.add(id(node))
        ranks.setdefault(id(node.operation), len(ranks))
        stack.extend(reversed(node.parent_nodes))
    return ranks


def _keras_layer_order(nodes, outputs):
    """The layers of `nodes` (topologically sorted, inputs first) in Keras's order: by
    decreasing depth (the longest path to an output), ties by first visit from the outputs.
    Keras's legacy `.h5` files match layers by this position."""
    node_depth, op_depth = {}, {}
    for node in reversed(nodes):
        depth = max(node_depth.setdefault(id(node), 0), op_depth.get(id(node.operation), 0))
        op_depth[id(node.operation)] = node_depth[id(node)] = depth
        for parent in node.parent_nodes:
            node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
    first = _first_visits(outputs)
    layers = {id(n.operation): n.operation for n in nodes if isinstance(n.operation, Layer)}
    return sorted(layers.values(), key=lambda op: (-op_depth[id(op)], first[id(op)]))


def _with_rank(model_name, x, shape):
    """`x` with the rank of `shape` (an `Input`'s), through a trailing axis of size 1."""
    if x is None or len(x.shape) == len(shape):
        return x
    if len(x.shape) == len(shape) + 1 and x.shape[-1] == 1:
        return ops.squeeze(x, axis=-1)
    if len(x.shape) == len(shape) - 1 and shape[-1] == 1:
        return ops.expand_dims(x, -1)
    raise ValueError(
        f"Model '{model_name}': an input of shape {tuple(x.shape)} cannot feed the Input of shape "
        f"{shape}: the ranks differ by more than a trailing axis of size 1."
    )
