"""`_RecurrentCell` and `_DenseCell`: what the built-in recurrent cells share.

Every built-in cell (SimpleRNN, GRU, LSTM, ConvLSTM) projects its input with `kernel` and its
previous state with `recurrent_kernel`, adds `bias` (the three weights created in that order, as
Keras does), drops out inputs and states while training, and takes the same arguments for all of
that. `_DenseCell` makes the projections dense (SimpleRNN, GRU, LSTM); the ConvLSTM cell makes
them convolutions.
"""

from tripod.backends.common.seed import SeedGenerator
from tripod.layers import activations, weight_settings
from tripod.layers.layer import Layer
from tripod.layers.rnn.dropout_rnn_cell import DropoutRNNCell, check_rate, check_units


class _RecurrentCell(DropoutRNNCell, Layer):
    """A recurrent cell with a kernel, a recurrent kernel, an optional bias and dropout."""

    def __init__(
        self,
        *,
        activation,
        use_bias,
        kernel_initializer,
        recurrent_initializer,
        bias_initializer,
        kernel_regularizer,
        recurrent_regularizer,
        bias_regularizer,
        kernel_constraint,
        recurrent_constraint,
        bias_constraint,
        dropout,
        recurrent_dropout,
        seed,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        weight_settings.resolve(
            self, "kernel", kernel_initializer, kernel_regularizer, kernel_constraint
        )
        weight_settings.resolve(
            self, "recurrent", recurrent_initializer, recurrent_regularizer, recurrent_constraint
        )
        weight_settings.resolve(self, "bias", bias_initializer, bias_regularizer, bias_constraint)
        self.dropout = check_rate(self, "dropout", dropout)
        self.recurrent_dropout = check_rate(self, "recurrent_dropout", recurrent_dropout)
        self.seed = seed
        self.seed_generator = SeedGenerator(seed=seed)

    def _add_weights(self, kernel_shape, recurrent_shape, bias_shape, bias_initializer):
        """Create `kernel`, `recurrent_kernel` and (with `use_bias`) `bias`, which starts from
        `bias_initializer`."""
        self.kernel = weight_settings.add(self, "kernel", kernel_shape)
        self.recurrent_kernel = weight_settings.add(
            self, "recurrent", recurrent_shape, name="recurrent_kernel"
        )
        self.bias = None
        if self.use_bias:
            self.bias = weight_settings.add(self, "bias", bias_shape, initializer=bias_initializer)

    def _recurrent_config(self):
        """The config entries of the arguments every built-in cell takes."""
        return {
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **weight_settings.config(self, "kernel", "recurrent", "bias"),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        }


class _DenseCell(_RecurrentCell):
    """A recurrent cell whose gates are dense projections of the input and of the hidden state."""

    #: how many units-wide blocks the kernels hold (1 for SimpleRNN, 3 for GRU, 4 for LSTM)
    gates = 1

    def __init__(
        self,
        units,
        activation="tanh",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        super().__init__(
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            **kwargs,
        )
        self.units = check_units(self, units)
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
                f"{type(self).__name__} '{self.name}': the last input dimension must be known, "
                f"received shape {input_shape}."
            )
        width = self.gates * self.units
        self._add_weights(
            (input_dim, width), (self.units, width), self._bias_shape(), self._bias_initializer()
        )
        self.built = True

    def get_config(self):
        return {**super().get_config(), "units": self.units, **self._recurrent_config()}
