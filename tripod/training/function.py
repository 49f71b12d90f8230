"""`Function`: a callable graph of layer calls and ops from symbolic inputs to outputs.

It is the plan a functional model runs (`functional._Step`), without the model around it: no
weights of its own, no training, no saving. The inputs may be any `KerasTensor`s, from
`tripod.Input` or made directly, and intermediate tensors too: the graph stops at them.
"""

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.training.functional import _normalize, _Step, mark_last_reads


class Function:
    """`Function(inputs, outputs, name=None)`: calling it on real tensors (or KerasTensors)
    replays the operations that lead from `inputs` to `outputs`."""

    def __init__(self, inputs, outputs, name=None):
        self.name = name or "function"
        self._inputs_struct = _normalize(inputs)
        self._outputs_struct = _normalize(outputs)
        for x in self.inputs + self.outputs:
            if not isinstance(x, KerasTensor):
                # ValueError, not TypeError: Keras raises ValueError here, and ported code catches it
                raise ValueError(  # noqa: TRY004
                    f"Function '{self.name}': inputs and outputs must be KerasTensors, received {x!r}."
                )
        nodes = _nodes_between(self.inputs, self.outputs, self.name)
        slot_of = {id(x): i for i, x in enumerate(self.inputs)}
        for node in nodes:
            for x in node.output_tensors:
                slot_of.setdefault(id(x), len(slot_of))
        self._plan = [_Step(node, slot_of, set()) for node in nodes]
        self._output_slots = [slot_of[id(x)] for x in self.outputs]
        mark_last_reads(self._plan, self._output_slots)
        self._num_slots = len(slot_of)
        self.operations = [node.operation for node in nodes]

    @property
    def inputs(self):
        """The symbolic inputs, flat."""
        return tree.flatten(self._inputs_struct)

    @property
    def outputs(self):
        """The symbolic outputs, flat."""
        return tree.flatten(self._outputs_struct)

    def __call__(self, inputs):
        """The outputs for `inputs` (structured as the Function's inputs were given)."""
        flat = tree.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(
                f"Function '{self.name}' expects {len(self.inputs)} input(s), received {len(flat)}."
            )
        values = flat + [None] * (self._num_slots - len(flat))
        for step in self._plan:
            args, kwargs = step.fill(values)
            result = tree.flatten(step.layer(*args, **kwargs))
            for slot, y in zip(step.out_slots, result):
                values[slot] = y
            step.release(values)
        return tree.pack_sequence_as(self._outputs_struct, [values[s] for s in self._output_slots])

    def compute_output_spec(self, inputs):
        """KerasTensors describing the outputs for inputs like `inputs` (KerasTensors)."""
        return self(inputs)

    def compute_output_shape(self, input_shape):
        """The output shapes for inputs of `input_shape` (nested as the inputs)."""
        specs = tree.map_shape_structure(KerasTensor, input_shape)
        return tree.map_structure(lambda x: x.shape, self(specs))


def _nodes_between(inputs, outputs, name):
    """The nodes leading from `inputs` to `outputs`, each after the nodes it reads from."""
    stop = {id(x) for x in inputs}
    ordered, done = [], set()

    def visit(tensor):
        if id(tensor) in stop:
            return
        history = tensor._keras_history
        if history is None:
            raise ValueError(
                f"Function '{name}': the outputs read {tensor}, which is neither among its inputs "
                "nor made by an operation."
            )
        node = history[0]._inbound_nodes[history[1]]
        if id(node) in done:
            return
        if not node.input_tensors:
            raise ValueError(
                f"Function '{name}': the outputs depend on '{history[0].name}', which is not among its inputs."
            )
        done.add(id(node))
        for x in node.input_tensors:
            visit(x)
        ordered.append(node)

    for x in outputs:
        visit(x)
    return ordered
