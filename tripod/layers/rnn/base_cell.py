"""`_DenseCell`: what SimpleRNNCell, LSTMCell and GRUCell share — their arguments, their three
weights (kernel, recurrent_kernel, bias, created in that order as Keras does), dropout and config."""

from tripod.backends.common.seed import SeedGenerator
from tripod.layers import activations, constraints, initializers, regularizers
from tripod.layers.layer import Layer
from tripod.layers.rnn.dropout_rnn_cell import DropoutRNNCell, check_rate, check_units


class _DenseCell(DropoutRNNCell, Layer):
    """A recurrent cell whose gates are dense projections of the input and of the hidden state."""

    #: how many units-wide blocks the kernels hold (1 for SimpleRNN, 3 for GRU, 4 for LSTM)
    gates = 1

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):  # fmt: skip
        super().__init__(**kwargs)
        self.units = check_units(self, units)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = check_rate(self, "dropout", dropout)
        self.recurrent_dropout = check_rate(self, "recurrent_dropout", recurrent_dropout)
        self.seed = seed
        self.seed_generator = SeedGenerator(seed=seed)
        self.state_size = self.units
        self.output_size = self.units

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': the last input dimension must be known, received shape {input_shape}."
            )
        width = self.gates * self.units
        self.kernel = self.add_weight(
            shape=(input_dim, width), initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )  # fmt: skip
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, width), initializer=self.recurrent_initializer, name="recurrent_kernel",
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint,
        )  # fmt: skip
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=self._bias_shape(), initializer=self._bias_initializer(), name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )  # fmt: skip
        self.built = True

    def get_config(self):
        return {
            **super().get_config(),
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        }
