"""`LSTMCell` and `LSTM`: the long short-term memory recurrence, gates in Keras's order i, f, c, o."""

import numpy as np

from tripod.backends import active
from tripod.layers import activations, regularizers
from tripod.layers.rnn.base_cell import _DenseCell
from tripod.layers.rnn.rnn import RNN, cell_config, cell_property

ops = active()


class UnitForgetBias:
    """The LSTM bias initializer with `unit_forget_bias`: the forget gate's block starts at ones."""

    def __init__(self, initializer, units):
        self.initializer, self.units = initializer, units

    def __call__(self, shape, dtype=None):
        u = self.units
        parts = [
            self.initializer((u,), dtype=dtype),
            np.ones((u,)),
            self.initializer((2 * u,), dtype=dtype),
        ]
        return np.concatenate([np.asarray(p) for p in parts]).astype(parts[0].dtype)


class LSTMCell(_DenseCell):
    """One step of an LSTM: states are [h, c]."""

    gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):  # fmt: skip
        super().__init__(
            units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, **kwargs,
        )  # fmt: skip
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [self.units, self.units]

    def _bias_initializer(self):
        if self.unit_forget_bias:
            return UnitForgetBias(self.bias_initializer, self.units)
        return self.bias_initializer

    def call(self, inputs, states, training=False):
        h_previous, c_previous = states[0], states[1]
        z = ops.add(
            ops.matmul(self._masked_inputs(inputs, training), self.kernel.value),
            ops.matmul(self._masked_state(h_previous, training), self.recurrent_kernel.value),
        )
        if self.bias is not None:
            z = ops.add(z, self.bias.value)
        i, f, c, o = ops.split(z, 4, axis=-1)
        c = ops.add(
            ops.multiply(self.recurrent_activation(f), c_previous),
            ops.multiply(self.recurrent_activation(i), self.activation(c)),
        )
        h = ops.multiply(self.recurrent_activation(o), self.activation(c))
        return h, [h, c]

    def get_config(self):
        return {
            **super().get_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "unit_forget_bias": self.unit_forget_bias,
        }


class LSTM(RNN):
    """Long short-term memory layer (Hochreiter & Schmidhuber, 1997) over (batch, time, features)."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, use_cudnn="auto", **kwargs):  # fmt: skip
        cell = LSTMCell(
            units, activation=activation, recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, dtype=kwargs.get("dtype"),
            trainable=kwargs.get("trainable", True), name="lstm_cell",
        )  # fmt: skip
        super().__init__(
            cell, return_sequences=return_sequences, return_state=return_state, go_backwards=go_backwards,
            stateful=stateful, unroll=unroll, activity_regularizer=activity_regularizer, **kwargs,
        )  # fmt: skip
        self.use_cudnn = use_cudnn  # accepted for Keras compatibility; there is no cuDNN path

    units = cell_property("units")
    activation = cell_property("activation")
    recurrent_activation = cell_property("recurrent_activation")
    use_bias = cell_property("use_bias")
    unit_forget_bias = cell_property("unit_forget_bias")
    dropout = cell_property("dropout")
    recurrent_dropout = cell_property("recurrent_dropout")

    def get_config(self):
        return {
            **super().get_config(), **cell_config(self.cell),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
        }  # fmt: skip
