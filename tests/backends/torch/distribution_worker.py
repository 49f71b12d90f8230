"""One process of a 2-process torch distribution test (run by `test_distribution.py`).

Usage: python -m tests.backends.torch.distribution_worker SCENARIO RANK WORLD PORT
Each scenario joins the run, drives the torch engine as the trainer does (place the state, make a
step, call it on this process's rows) and checks it against a one-device reference model trained
on the global batch; it prints "OK <scenario>" when every check passed.
"""

import os
import sys
import time
from types import SimpleNamespace

import numpy as np

import tripod
from tripod.backends import active

ops = active()

GLOBAL_BATCH = 8
STEPS = 3


def distribution(shape, axis_names, batch_dim_name, layout_map=None):
    """A stand-in for a `tripod.distribution` distribution: the attributes engines read (a
    `layout_map`, {key: layout}, makes it a ModelParallel)."""
    devices = np.array(ops.list_devices(), dtype=object).reshape(shape)
    mesh = SimpleNamespace(shape=shape, axis_names=axis_names, devices=devices)
    return SimpleNamespace(
        device_mesh=mesh,
        batch_dim_name=batch_dim_name,
        model_parallel=layout_map is not None,
        layout_map=layout_map,
    )


def rows(rank, world):
    """This process's rows of the global batch, as the trainer hands them over."""
    return slice(rank * GLOBAL_BATCH // world, (rank + 1) * GLOBAL_BATCH // world)


def layout(*axes):
    return SimpleNamespace(axes=axes)


def sgd():
    return tripod.optimizers.SGD(0.1, momentum=0.5)


def make_model(seed, optimizer=sgd):
    tripod.utils.set_random_seed(seed)
    model = tripod.Sequential(
        [tripod.Input((4,)), tripod.layers.Dense(6, activation="tanh"), tripod.layers.Dense(2)]
    )
    model.compile(optimizer=optimizer(), loss="mse", metrics=["mae"])
    return model


def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(GLOBAL_BATCH, 4)).astype("float32"), rng.normal(
        size=(GLOBAL_BATCH, 2)
    ).astype("float32")


def pairs(model, layouts, mode):
    """(variable, layout) for the step's state: model variables by path, optimizer slots as
    their variable, metric variables replicated."""
    by_id = {id(v): layouts.get(v.path) for v in model.trainable_variables}
    result = [(v, by_id[id(v)]) for v in model.trainable_variables]
    result += [(v, layouts.get(v.path)) for v in model.non_trainable_variables]
    if mode == "train":
        optimizer = model.optimizer
        slots = {
            id(s): by_id[id(v)]
            for slots in optimizer._slot_lists
            for s, v in zip(slots, optimizer._trainable_variables)
        }
        result += [(v, slots.get(id(v))) for v in optimizer.variables]
    if mode != "predict":
        result += [(v, None) for m in model.metrics for v in m.variables]
    return result


def state(model, mode):
    """The step's state as the trainer hands it over (empty groups where the mode has none)."""
    names = {"train": ("optimizer", "metrics"), "test": ("metrics",), "predict": ()}[mode]
    groups = dict(zip(("trainable", "non_trainable") + names, model._state_groups(mode)))
    return {
        name: groups.get(name, [])
        for name in ("trainable", "non_trainable", "optimizer", "metrics")
    }


def run_steps(engine, model, layouts, batch, mode):
    """The engine's step for `mode`, made as the trainer makes it, called STEPS times (once to
    predict): its outputs, as NumPy."""
    model._prepare(batch, mode)
    engine.place(pairs(model, layouts, mode))
    results = None if mode == "predict" else model.get_metrics_result
    step = engine.compile_step(
        {"train": model.train_step, "test": model.test_step, "predict": model.predict_step}[mode],
        state(model, mode),
        mode,
        "auto",
        False,
        results,
    )
    return _run_steps(step, batch, mode)


def _run_steps(step, batch, mode):
    """The outputs of STEPS calls of `step` (one for predict), as floats or NumPy arrays."""
    outs = [step(batch) for _ in range(1 if mode == "predict" else STEPS)]
    return [
        {k: float(ops.convert_to_numpy(v)) for k, v in o.items()}
        if isinstance(o, dict)
        else ops.convert_to_numpy(o)
        for o in outs
    ]


def reference_steps(model, batch, mode):
    model._prepare(batch, mode)
    step = model._step(mode)
    return _run_steps(step, batch, mode)


def check_close(what, got, want, atol):
    if isinstance(want, dict):
        assert got.keys() == want.keys(), f"{what}: keys {sorted(got)} != {sorted(want)}"
        for key in want:
            check_close(f"{what}[{key}]", got[key], want[key], atol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    assert np.allclose(got, want, atol=atol, rtol=0), (
        f"{what}: max diff {np.max(np.abs(got - want))}"
    )


def compare(engine, spec, local_rows, atol, rank, optimizer=sgd):
    """Train, test and predict on the engine and on a one-device reference: same logs and weights
    (the train logs returned). `spec`: {(layer index, weight name): layout}."""
    x, y = data()
    # different initial weights: placing agrees on process 0's
    model = make_model(seed=10 + rank, optimizer=optimizer)
    reference = make_model(seed=10, optimizer=optimizer)
    layouts = {getattr(model.layers[i], name).path: value for (i, name), value in spec.items()}
    local = (x[local_rows], y[local_rows], None)
    model._prepare(local, "train")
    engine.place(pairs(model, layouts, "train"))
    reference.set_weights(model.get_weights())  # process 0's initial weights, gathered
    outputs = {}
    for mode, batch in (
        ("train", local),
        ("test", local),
        # a local predict (DataParallel) takes every row in each process, as the trainer gives
        ("predict", (x if engine.local_predict else x[local_rows], None, None)),
    ):
        got = run_steps(engine, model, layouts, batch, mode)
        want = reference_steps(
            reference, (x, y, None) if mode != "predict" else (x, None, None), mode
        )
        for i, (g, w) in enumerate(zip(got, want)):
            check_close(f"{mode} step {i}", g, w, atol)
        for v, r in zip(model.weights, reference.weights):
            check_close(f"{mode}: {v.path}", v.numpy(), r.numpy(), atol)
        outputs[mode] = got
    return model, outputs["train"]


def scenario_data_parallel(rank, world):
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch"))
    model, _ = compare(engine, {}, rows(rank, world), 1e-6, rank)
    seeds = [engine.agreed_seed() for _ in range(2)]
    print("seeds", seeds, flush=True)
    assert not any(type(v).__name__ == "ShardedVariable" for v in model.weights)


def scenario_batch_norm(rank, world):
    """Moving statistics average over the processes: after one step on equal shares, the moving
    mean is the one-device one; the logs (computed with each share's own batch statistics) are
    the same in every process (printed for the caller to compare)."""
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch"))
    x, y = data()
    models = []
    for seed in (rank, 0):
        tripod.utils.set_random_seed(seed)
        model = tripod.Sequential(
            [
                tripod.Input((4,)),
                tripod.layers.BatchNormalization(momentum=0.5),
                tripod.layers.Dense(2),
            ]
        )
        model.compile(optimizer=tripod.optimizers.SGD(0.1), loss="mse")
        models.append(model)
    model, reference = models
    share = rows(rank, world)
    logs = run_steps(engine, model, {}, (x[share], y[share], None), "train")
    reference_steps(reference, (x, y, None), "train")
    moving_mean = model.layers[0].moving_mean.numpy()
    check_close("moving_mean", moving_mean, reference.layers[0].moving_mean.numpy(), 1e-6)
    print("LOGS", logs, model.layers[0].moving_variance.numpy().tolist(), flush=True)


def scenario_model_parallel(rank, world):
    spec = {(0, "kernel"): layout(None, "model"), (0, "bias"): layout("model")}
    engine = ops.distribution_engine(distribution((1, world), ("batch", "model"), "batch", spec))
    assert type(engine).__name__ == "ShardedEngine"
    model, _ = compare(engine, spec, rows(rank, world), 1e-5, rank)  # rows gathered: batch axis 1
    kernel = model.layers[0].kernel
    local = kernel.value.to_local()
    assert tuple(local.shape) == (4, 6 // world), f"local kernel shard {tuple(local.shape)}"
    # load_weights' path: a full value assigned keeps the placement
    full = np.arange(24, dtype="float32").reshape(4, 6)
    kernel.assign(full)
    assert tuple(kernel.value.to_local().shape) == (4, 6 // world)
    check_close("assigned kernel", kernel.numpy(), full, 0)


def scenario_sharded_data_parallel(rank, world):
    """FSDP2: the kernel split over the batch axis is `fully_shard`ed (half its rows here), the
    rest replicated; SGD with momentum (its slot split like the kernel) as one device."""
    spec = {(0, "kernel"): layout("batch", None), (1, "kernel"): layout(None, None)}
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch", spec))
    assert type(engine).__name__ == "FullyShardedEngine"
    model, logs = compare(engine, spec, rows(rank, world), 1e-5, rank)
    print("LOGS sgd", logs, flush=True)
    kernel = model.layers[0].kernel
    assert type(kernel).__name__ == "FsdpVariable"
    assert tuple(kernel.value.to_local().shape) == (4 // world, 6)
    assert type(model.layers[1].kernel.value).__name__ == "Parameter"  # replicated: plain
    optimizer = model.optimizer
    momentum = next(  # the kernel's momentum, split like it
        slot
        for slots in optimizer._slot_lists
        for slot, variable in zip(slots, optimizer._trainable_variables)
        if variable is kernel
    )
    assert momentum.shape == (4, 6) and tuple(momentum.value.to_local().shape) == (4 // world, 6)
    # load_weights' path: a full value assigned keeps the sharding
    full = np.arange(24, dtype="float32").reshape(4, 6)
    kernel.assign(full)
    assert tuple(kernel.value.to_local().shape) == (4 // world, 6)
    check_close("assigned kernel", kernel.numpy(), full, 0)
    share = slice(rank * 4 // world, (rank + 1) * 4 // world)
    check_close("local rows", kernel.value.to_local().detach().numpy(), full[share], 0)


def scenario_fully_sharded_adam(rank, world):
    """FSDP2 with Adam and every Dense variable split over the batch axis, a kernel on its
    columns (`Shard(1)`): as one device within 1e-5."""
    spec = {
        (0, "kernel"): layout(None, "batch"),
        (0, "bias"): layout("batch"),
        (1, "kernel"): layout("batch", None),
    }
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch", spec))
    model, logs = compare(
        engine, spec, rows(rank, world), 1e-5, rank, lambda: tripod.optimizers.Adam(0.05)
    )
    print("LOGS adam", logs, flush=True)
    first, second = model.layers
    assert tuple(first.kernel.value.to_local().shape) == (4, 6 // world)
    assert tuple(first.bias.value.to_local().shape) == (6 // world,)
    assert tuple(second.kernel.value.to_local().shape) == (6 // world, 2)


def scenario_two_fully_sharded_models(rank, world):
    """A second model placed by the same FSDP2 engine gets a module of its own; each model's
    steps (run through both modules) train it as one device."""
    spec = {(0, "kernel"): layout("batch", None)}
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch", spec))
    first, _ = compare(engine, spec, rows(rank, world), 1e-5, rank)
    second, _ = compare(engine, spec, rows(rank, world), 1e-5, rank)
    assert first.layers[0].kernel._module is not second.layers[0].kernel._module


def scenario_fully_sharded_statistics(rank, world):
    """Sharded data parallel steps run on each process's rows: a non-trainable variable split
    over the batch axis (a moving mean) is a clear error."""
    spec = {(0, "moving_mean"): layout("batch")}
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch", spec))
    tripod.utils.set_random_seed(0)
    model = tripod.Sequential([tripod.Input((4,)), tripod.layers.BatchNormalization()])
    model.compile(optimizer="sgd", loss="mse")
    x, _ = data()
    try:
        run_steps(
            engine,
            model,
            {model.layers[0].moving_mean.path: layout("batch")},
            (x[:4], x[:4], None),
            "train",
        )
    except ValueError as error:
        assert "non-trainable variables" in str(error) and "moving_mean" in str(error), error
        return
    raise AssertionError("a split moving mean went unnoticed")


def scenario_dead_peer(rank, world):
    engine = ops.distribution_engine(distribution((world,), ("batch",), "batch"))
    x, y = data()
    model = make_model(0)
    batch = (x[:4], y[:4], None)
    model._prepare(batch, "train")
    engine.place(pairs(model, {}, "train"))
    step = engine.compile_step(
        model.train_step, state(model, "train"), "train", "auto", False, model.get_metrics_result
    )
    step(batch)
    if rank == 1:
        os._exit(0)  # dies without a word
    start = time.monotonic()
    try:
        for _ in range(100):
            step(batch)
    except RuntimeError as error:
        print(f"FAILED after {time.monotonic() - start:.1f}s: {error}", flush=True)
        print("OK dead_peer", flush=True)
        # A process group that lost a peer may abort in its teardown at exit (gloo's
        # "terminate called without an active exception"): what is checked has been said.
        os._exit(0)
    raise AssertionError("the steps went on without the dead peer")


def main():
    scenario, rank, world, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    ops.initialize_processes([f"127.0.0.1:{port}"], world, rank)
    assert (ops.process_count(), ops.process_index()) == (world, rank)
    assert ops.list_devices() == [f"cpu:{i}" for i in range(world)]
    for name in scenario.split(","):
        globals()[f"scenario_{name}"](rank, world)
        print(f"OK {name}", flush=True)


if __name__ == "__main__":
    main()
