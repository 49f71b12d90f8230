"""Backend hooks used by layers and training (not part of `tripod.ops`)."""


def compute_output_spec(fn, *args, **kwargs):
    """KerasTensors describing fn's outputs for KerasTensor inputs, without computing values."""


def value_and_grad(fn, variables, has_aux=False):
    """A function running fn(*args, **kwargs) that returns (fn's result, gradients of its
    value — its first element when has_aux — with respect to each of `variables`).

    Exposed as `tripod.value_and_grad`: the one way to take gradients that is the same code on
    every training backend (jax, torch, tensorflow), so a custom `train_step` or training loop
    is written once. Pair it with `optimizer.apply(grads, variables)`.

    Args:
        fn: a function computing a scalar loss from tripod variables and ops; with `has_aux`
            it returns `(loss, aux)`, `aux` any structure of tensors passed through.
        variables: a list of tripod `Variable`s (e.g. `model.trainable_variables`).
        has_aux: bool, `fn` returns `(loss, aux)` rather than the loss alone.

    Returns:
        A function taking `fn`'s arguments and returning `(value, grads)`: `value` is fn's
        result (`(loss, aux)` with `has_aux`), `grads` a list of tensors, one per variable.

    Raises:
        NotImplementedError: on the numpy backend, which computes no gradients.

    Examples:
        >>> w = tripod.Variable(np.array([1.0, 2.0]))
        >>> def loss(x):
        ...     return tripod.ops.sum(w * w * x)
        >>> value, grads = tripod.value_and_grad(loss, [w])(3.0)
        >>> float(value), tripod.ops.convert_to_numpy(grads[0]).tolist()
        (15.0, [6.0, 12.0])
        >>> tripod.optimizers.SGD(learning_rate=0.1).apply(grads, [w])
        >>> print(np.round(tripod.ops.convert_to_numpy(w), 3))
        [0.4 0.8]

        In a model's custom `train_step`, with the predictions as auxiliary output:

        >>> class Stepped(tripod.Model):
        ...     def train_step(self, data):
        ...         x, y = data
        ...         def loss_and_predictions():
        ...             y_pred = self(x, training=True)
        ...             return self.compute_loss(x=x, y=y, y_pred=y_pred), y_pred
        ...         (loss, y_pred), grads = tripod.value_and_grad(
        ...             loss_and_predictions, self.trainable_variables, has_aux=True)()
        ...         self.optimizer.apply(grads, self.trainable_variables)
        ...         return {"loss": loss}
        >>> inputs = tripod.Input((2,))
        >>> model = Stepped(inputs, tripod.layers.Dense(1)(inputs))
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> list(model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0).history)
        ['loss']
    """


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    """fn(batch) compiled for this backend as a step object: call it on a batch of NumPy arrays
    (floats already in floatx) or backend tensors; its `sync()` writes state the compiled step
    holds back into `state_variables`. A step may also offer `fuses = True` and
    `run_many(batches)`, running several like batches in one compiled call, and `stages = True`
    with `stage(chunk)`, sending an execution's batches to the device ahead (`common/steps.py`)."""


def compile_state_step(fn, state_groups, mode, jit_compile, run_eagerly):
    """A step (as `compile_step` makes) running Keras's JAX form `fn(state, batch) -> (outputs,
    new state)`, the state a tuple of value lists, one per list of variables in `state_groups`
    (train: trainable, non-trainable, optimizer, metrics), threaded from call to call and
    written back into the variables; a clear error where that form does not exist (every backend
    but jax)."""


def no_grad():
    """A context in which tensor operations are not recorded for differentiation (optimizer
    updates): `torch.no_grad()` on torch, a no-op where gradients are functional."""


def zero_grad(variables, set_to_none=True):
    """Clear the gradients that `loss.backward()` accumulated on `variables` (torch), set to None
    or, with `set_to_none=False`, to zeros; an error where gradients are never accumulated on
    variables (jax, tensorflow, numpy), as such backends have no `backward()`."""


def native_parameters(variables):
    """The framework tensors that hold `variables`, for a native optimizer: on torch each one's
    `torch.nn.Parameter`, the very tensor forward passes read, so `torch.optim` steps change what
    the model computes (`Layer.parameters()`); an error on every other backend."""


def fuse_variables(variables, name):
    """A new flat variable named `name` whose storage `variables` come to share (each becomes a
    view of its slice, its value kept), so one in-place op on it updates them all; None where
    variables cannot share storage (every backend but torch) or these cannot (mixed dtypes,
    one already shared)."""


def optimizer_kernel(name):
    """The backend's fused update for optimizer rule `name` ("adam", "sgd", "rmsprop",
    "adagrad"), or None where it has none or cannot run one now (inside a compiled trace). It
    takes the native tensors of the variables, gradients and slots (lists) and Python-number
    hyperparameters, updates variables and slots in place with the rule the optimizer writes in
    `tripod.ops`, and returns True; False, having changed nothing, where it cannot (the
    optimizer then runs its rule)."""


def conv_with_bias(
    inputs, kernel, bias, strides=1, padding="valid", data_format=None, dilation_rate=1
):
    """`ops.conv(...)` plus `bias` (one value per output channel): a convolution layer's step,
    in one kernel where the backend's convolution adds a bias itself (torch)."""


def matmul_with_bias(x, kernel, bias):
    """`ops.add(ops.matmul(x, kernel), bias)` for a 2-D `kernel` and a 1-D `bias`: a Dense
    layer's step, in one kernel where the backend fuses the bias (torch's `linear`)."""


def update_average(variable, value, weight):
    """Add `(value - variable) * weight` to `variable` (in place) and return its new value: a
    running mean's step, `weight` being `1 - decay`. Torch scales the difference in its own
    buffer, one allocation fewer per optimizer slot update, with the same result."""


def device_scope(device_name):
    """A context manager placing the tensors created inside it on `device_name` ("cpu", "gpu",
    "gpu:1", ...): `jax.default_device`, a torch device context, `tf.device`; `tripod.device`."""


def remat(f):
    """`f` rematerialized: its intermediate values are recomputed in the backward pass instead of
    kept (`jax.checkpoint`, `torch.utils.checkpoint`, `tf.recompute_grad`); `tripod.remat`."""


def worker_seed():
    """In an input-pipeline worker process the framework started (a torch `DataLoader` worker):
    that worker's seed, which differs between workers and epochs; None elsewhere. Random data
    layers fold it into their keys, so forked workers do not repeat each other's draws."""


def list_devices(device_type=None):
    """Every device of the run, over all processes, as strings such as "cpu:0" or "gpu:1"
    (only those of `device_type`, "cpu"/"gpu"/"tpu", when given); `tripod.distribution`."""


def initialize_processes(job_addresses, num_processes, process_id):
    """Join a run of `num_processes` processes as `process_id`: `job_addresses` lists "host:port"
    strings, the first the coordinator's, or one per process (`jax.distributed.initialize`,
    `torch.distributed.init_process_group`, a `TF_CONFIG` cluster); a clear error within a
    timeout when the coordinator cannot be reached."""


def process_count():
    """How many processes the run has (1 before `initialize_processes`)."""


def process_index():
    """This process's index in the run, 0 to `process_count() - 1`."""


def distribution_engine(distribution):
    """This backend's engine (`tripod.backends.common.engine.Engine`) for a
    `tripod.distribution` distribution; a clear error where the backend cannot run it."""


def export_formats():
    """The `model.export` formats this backend writes, e.g. ("onnx", "tf_saved_model")."""


def export_artifact(format, endpoints, filepath, options):
    """Write `endpoints` (`tripod.export.ServingFunction`s; exactly one for "onnx" and "torch")
    as an artifact of `format` at `filepath`, a path that does not exist yet (a file, or a folder
    for "tf_saved_model"); `options` holds `opset`, `verbose`, `variable_collections` and the
    converter's own keyword arguments. A format not in `export_formats()` is an error."""


def adopt_variable(native, name, trainable):
    """A tripod `Variable` named `name` whose storage is the framework variable `native` (a
    `torch.nn.Parameter`, a `tf.Variable`), shared rather than copied, so a native module and
    the tripod layer wrapping it see the same values; a clear error for anything else."""


def distribute_strategy(engine=None):
    """The `tf.distribute` strategy a model's steps run under: `engine`'s (a distribution's,
    `tripod.distribution`), else TensorFlow's current one (`Model.distribute_strategy`, as
    Keras's tensorflow trainer has it); a clear error on every backend but tensorflow."""


def load_saved_model(filepath):
    """The TensorFlow SavedModel at `filepath`, loaded (`tf.saved_model.load`) for `TFSMLayer`;
    a clear error on every backend but tensorflow."""


def batch_norm_training(x, axis, scale, offset, epsilon):
    """(outputs, mean, variance) of a training BatchNormalization step: `x` normalized along
    feature `axis` with its own batch statistics (taken over every other axis; `scale` and
    `offset` per feature or None), and those statistics for the moving averages. Torch runs its
    native batch-norm kernel, tensorflow its fused one for features-last float32 and half inputs
    (float32 statistics within about 1e-5 relative of two-pass ones; they carry no gradient)."""


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias):
    """(outputs (batch, time, units), last h, last c) of an LSTM with sigmoid gates and tanh
    activations (Keras's gate order i, f, c, o; `bias` may be None) run over `inputs` (batch,
    time, features) from states `h` and `c`: one native kernel on torch (`torch.lstm`), else the
    input projection in one matmul and a scan of the recurrent half. None where the backend
    runs the layer's cell scan faster (jax, torch.compile)."""


def gru_sequence(inputs, h, kernel, recurrent_kernel, bias):
    """(outputs (batch, time, units), last h) of a `reset_after=True` GRU with sigmoid gates and
    a tanh candidate (Keras's gate order z, r, h; `bias` (2, 3*units), input and recurrent rows,
    or None) run over `inputs` (batch, time, features) from state `h`, in one native kernel
    (`torch.gru`); None where the backend has none, and the layer then scans."""
