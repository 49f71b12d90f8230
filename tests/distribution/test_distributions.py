"""DataParallel / ModelParallel without running them: meshes, layouts, scope and bad input."""

import numpy as np
import pytest

import tripod
from tripod.distribution import (
    DataParallel,
    DeviceMesh,
    LayoutMap,
    ModelParallel,
    TensorLayout,
    distribution,
    set_distribution,
)

MESH = DeviceMesh((2, 2), ("batch", "model"), ["cpu:0", "cpu:1", "cpu:2", "cpu:3"])


def _variable(path, shape):
    return tripod.Variable(np.zeros(shape, "float32"), name=path.rpartition("/")[2], path=path)


def test_data_parallel_spans_the_given_devices_on_one_batch_axis():
    dp = DataParallel(devices=["cpu:0", "cpu:1"])
    assert dp.device_mesh.shape == (2,) and dp.batch_dim_name == "batch" and dp.num_replicas == 2
    assert dp.get_data_layout((8, 3)).axes == ("batch", None)
    assert dp.get_variable_layout(_variable("d/kernel", (3, 4))).axes == (None, None)
    assert not dp.model_parallel


def test_data_parallel_needs_a_flat_mesh():
    with pytest.raises(ValueError, match="must be 1-D"):
        DataParallel(device_mesh=MESH)
    with pytest.raises(ValueError, match="not both"):
        DataParallel(device_mesh=DeviceMesh((1,), ("batch",)), devices=["cpu:0"])


def test_model_parallel_lays_out_variables_by_path():
    layout_map = LayoutMap(MESH)
    layout_map["dense.*kernel"] = (None, "model")
    mp = ModelParallel(layout_map=layout_map, batch_dim_name="batch")
    assert mp.model_parallel and mp.num_replicas == 2
    assert mp.get_variable_layout(_variable("dense/kernel", (3, 4))).axes == (None, "model")
    assert mp.get_variable_layout(_variable("dense/bias", (4,))).axes == (None,)
    with pytest.raises(ValueError, match=r"'dense/kernel'.*dimension 1 \(size 5\)"):
        mp.get_variable_layout(_variable("dense/kernel", (3, 5)))


def test_a_layout_map_key_matching_no_variable_is_an_error():
    layout_map = LayoutMap(MESH)
    layout_map["dense.*kernel"] = (None, "model")
    layout_map["conv.*kernel"] = (None, "model")
    mp = ModelParallel(layout_map=layout_map)
    with pytest.raises(ValueError, match=r"keys \['conv.\*kernel'\] match no variable"):
        mp.check_keys_used(["dense/kernel", "dense/bias"])


def test_model_parallel_checks_its_arguments():
    with pytest.raises(TypeError, match="must be a LayoutMap"):
        ModelParallel(layout_map={"a": (None,)})
    with pytest.raises(ValueError, match="batch_dim_name 'data' is not an axis"):
        ModelParallel(layout_map=LayoutMap(MESH), batch_dim_name="data")
    with pytest.raises(TypeError, match="unexpected arguments"):
        ModelParallel(layout_map=LayoutMap(MESH), foo=1)


def test_set_distribution_and_scope():
    assert distribution() is None
    dp = DataParallel(devices=["cpu:0"])
    set_distribution(dp)
    try:
        assert distribution() is dp
    finally:
        set_distribution(None)
    with pytest.raises(TypeError, match="expected a Distribution"):
        set_distribution("dp")


@pytest.mark.skipif(tripod.config.backend() == "numpy", reason="numpy does not distribute")
def test_scope_sets_the_distribution_for_the_block():
    dp = DataParallel(devices=["cpu:0"])
    with dp.scope() as inside:
        assert distribution() is dp is inside
    assert distribution() is None


@pytest.mark.skipif(tripod.config.backend() != "numpy", reason="the numpy backend's refusal")
def test_the_numpy_backend_refuses_clearly():
    with pytest.raises(
        NotImplementedError, match="does not distribute; use jax, torch or tensorflow"
    ):
        _ = DataParallel(devices=["cpu:0"]).engine


def test_tensor_layout_defaults_to_no_mesh():
    assert TensorLayout((None,)).device_mesh is None
