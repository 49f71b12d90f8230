"""`StackedRNNCells`: several recurrent cells run as one, each feeding the next within a step."""

import inspect

from tripod.layers.layer import Layer
from tripod.layers.rnn.dropout_rnn_cell import state_list
from tripod.saving import serialization


class StackedRNNCells(Layer):
    """A cell made of several cells applied in order at every time step: each cell's output is
    the next cell's input.

    Its states are one list per cell, `state_size` the list of the cells' state sizes, and its
    output the last cell's. `RNN([cell_a, cell_b])` wraps a list of cells in this class.

    Args:
        cells: a non-empty list of cells (objects with `call(inputs, states)` and
            `state_size`), first to last.
        **kwargs: the `Layer` arguments (name, dtype, trainable, ...).

    Raises:
        ValueError: `cells` is not a non-empty list, or one of them has no `call` method or no
            `state_size`.

    Examples:
        >>> cells = [tripod.layers.SimpleRNNCell(4), tripod.layers.SimpleRNNCell(2)]
        >>> stacked = tripod.layers.StackedRNNCells(cells)
        >>> stacked.state_size
        [4, 2]
        >>> tuple(tripod.layers.RNN(stacked)(np.zeros((3, 5, 6))).shape)
        (3, 2)
    """

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(cells, (list, tuple)) or not cells:
            raise ValueError(
                f"StackedRNNCells '{self.name}': cells must be a non-empty list of cells, received "
                f"{cells!r}."
            )
        for cell in cells:
            if not callable(getattr(cell, "call", None)) or not hasattr(cell, "state_size"):
                raise ValueError(
                    f"StackedRNNCells '{self.name}': every cell needs a `call(inputs, states)` "
                    "method "
                    f"and a `state_size`, received {cell!r}."
                )
        self.cells = list(cells)
        self._takes_training = [
            "training" in inspect.signature(c.call).parameters for c in self.cells
        ]

    @property
    def state_size(self):
        return [cell.state_size for cell in self.cells]

    @property
    def output_size(self):
        last = self.cells[-1]
        size = getattr(last, "output_size", None)
        if size is not None:
            return size
        return state_list(last.state_size)[0]

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build_from_config({"input_shape": tuple(input_shape)})
            input_shape = (input_shape[0], self._output_dim(cell))
        self.built = True

    @staticmethod
    def _output_dim(cell):
        size = getattr(cell, "output_size", None)
        return size if size is not None else state_list(cell.state_size)[0]

    def call(self, inputs, states, training=None):
        new_states = []
        for cell, cell_states, takes_training in zip(self.cells, states, self._takes_training):
            kwargs = {"training": training} if takes_training else {}
            inputs, cell_states = cell.call(inputs, state_list(cell_states), **kwargs)
            new_states.append(state_list(cell_states))
        return inputs, new_states

    # -- the RNN's dropout protocol: each cell primes its masks on the input it will see ---------
    def _prime_dropout(self, step_input, states):
        for cell, cell_states in zip(self.cells, states):
            cell_states = state_list(cell_states)
            prime = getattr(cell, "_prime_dropout", None)
            step_input = prime(step_input, cell_states) if prime else cell_states[0]
        return step_input

    def _clear_dropout(self):
        for cell in self.cells:
            clear = getattr(cell, "_clear_dropout", None)
            if clear:
                clear()

    def output_like(self, states):
        last = self.cells[-1]
        last_states = state_list(states[-1])
        return last.output_like(last_states) if hasattr(last, "output_like") else last_states[0]

    def get_config(self):
        return {
            **super().get_config(),
            "cells": [serialization.serialize_keras_object(c) for c in self.cells],
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["cells"] = [
            serialization.deserialize_keras_object(c, custom_objects) for c in config["cells"]
        ]
        return super().from_config(config)
