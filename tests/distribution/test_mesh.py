"""DeviceMesh and TensorLayout: shapes, axis names, devices and the checks on them."""

from types import SimpleNamespace

import numpy as np
import pytest

from tests.accelerator import ON_ACCELERATOR
from tripod.distribution import DeviceMesh, TensorLayout, list_devices
from tripod.distribution.mesh import device_name

DEVICES = ["cpu:0", "cpu:1", "cpu:2", "cpu:3"]


def test_the_mesh_arranges_devices_row_major():
    mesh = DeviceMesh((2, 2), ("batch", "model"), DEVICES)
    assert mesh.shape == (2, 2) and mesh.axis_names == ("batch", "model")
    assert mesh.devices.tolist() == [["cpu:0", "cpu:1"], ["cpu:2", "cpu:3"]]
    assert mesh.axis_size("model") == 2


def test_the_default_devices_are_the_runs():
    mesh = DeviceMesh((1,), ("batch",))
    assert mesh.devices.tolist() == list_devices()[:1]
    if not ON_ACCELERATOR:
        assert mesh.devices.tolist() == ["cpu:0"]


@pytest.mark.parametrize(
    "shape, names, devices, message",
    [
        ((2, 2), ("batch",), DEVICES, "same length"),
        ((2, 2), ("a", "a"), DEVICES, "repeat"),
        ((3,), ("batch",), DEVICES, "needs 3 devices, received 4"),
    ],
)
def test_bad_meshes_are_clear_errors(shape, names, devices, message):
    with pytest.raises(ValueError, match=message):
        DeviceMesh(shape, names, devices)


def test_a_layout_checks_its_axes_against_the_mesh():
    mesh = DeviceMesh((2, 2), ("batch", "model"), DEVICES)
    assert TensorLayout((None, "model"), mesh).axes == (None, "model")
    with pytest.raises(ValueError, match=r"\['modle'\] are not axes"):
        TensorLayout((None, "modle"), mesh)


def test_a_layout_rejects_a_dimension_its_axis_does_not_divide():
    mesh = DeviceMesh((1, 4), ("batch", "model"), DEVICES)
    layout = TensorLayout((None, "model"), mesh)
    layout.check_shape((3, 8), "here")
    with pytest.raises(ValueError, match=r"dimension 1 \(size 6\).*4 devices of mesh axis 'model'"):
        layout.check_shape((3, 6), "here")
    with pytest.raises(ValueError, match="has 2 axes, the tensor has shape"):
        layout.check_shape((3, 8, 1), "here")
    assert np.array_equal(mesh.devices.ravel(), DEVICES)


@pytest.mark.parametrize(
    "device, name",
    [
        ("cpu:1", "cpu:1"),
        ("GPU:0", "gpu:0"),
        ("/job:worker/replica:0/task:0/device:GPU:1", "gpu:1"),
        ("cuda:2", "gpu:2"),
    ],
)
def test_device_names_in_every_framework_spelling(device, name):
    assert device_name(device) == name


def test_framework_device_objects_name_themselves():
    assert device_name(SimpleNamespace(platform="cpu", id=3)) == "cpu:3"  # a jax Device
    assert device_name(SimpleNamespace(type="cuda", index=None)) == "gpu:0"  # a torch.device
    with pytest.raises(TypeError, match="expected device names"):
        device_name(3)
    with pytest.raises(ValueError, match="not a device name"):
        device_name("tpu")
