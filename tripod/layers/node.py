"""`Node`: one call of an operation on symbolic tensors — the edges of a functional graph."""

from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor


class Node:
    """A call of `operation` on symbolic inputs, producing symbolic outputs.

    The node records its arguments with KerasTensors in place, so the same call can be replayed
    on real tensors; each output tensor's `_keras_history` points back at it.
    """

    def __init__(self, operation, call_args=(), call_kwargs=None, outputs=None):
        self.operation = operation
        self.arguments = (tuple(call_args), dict(call_kwargs or {}))
        self.outputs = outputs
        self.input_tensors = [x for x in tree.flatten(self.arguments) if isinstance(x, KerasTensor)]
        self.output_tensors = [x for x in tree.flatten(outputs) if isinstance(x, KerasTensor)]
        self.index = len(operation._inbound_nodes)
        operation._inbound_nodes.append(self)
        for x in self.input_tensors:
            if x._keras_history is not None:
                x._keras_history[0]._outbound_nodes.append(self)
        for i, x in enumerate(self.output_tensors):
            x._keras_history = (operation, self.index, i)

    @property
    def parent_nodes(self):
        """The nodes that produced this node's inputs."""
        parents = []
        for x in self.input_tensors:
            if x._keras_history is not None:
                op, index, _ = x._keras_history
                node = op._inbound_nodes[index]
                if node not in parents:
                    parents.append(node)
        return parents

    @property
    def is_input(self):
        """Whether this node is a graph input (an `Input` with no parents)."""
        return not self.input_tensors


def nodes_in_order(outputs):
    """Every node the outputs depend on, each after the nodes it reads from."""
    ordered, done, active = [], set(), set()

    def visit(node):
        if id(node) in done:
            return
        if id(node) in active:
            raise ValueError("The functional graph has a cycle.")
        active.add(id(node))
        for parent in node.parent_nodes:
            visit(parent)
        active.discard(id(node))
        done.add(id(node))
        ordered.append(node)

    for x in outputs:
        if x._keras_history is None:
            raise ValueError(
                f"{x} was not produced by a layer or an Input: it cannot be a model output."
            )
        op, index, _ = x._keras_history
        visit(op._inbound_nodes[index])
    return ordered
