"""`to_python`: the logs callbacks receive hold Python numbers (arrays for larger values)."""

import numpy as np

from tripod.backends import active
from tripod.training.callbacks.callback_list import to_python

ops = active()


def test_scalar_tensors_become_python_numbers_of_their_kind():
    logs = to_python(
        {
            "loss": ops.convert_to_tensor(np.float32(0.1)),
            "steps": ops.convert_to_tensor(np.int32(7)),
            "stopped": ops.convert_to_tensor(np.bool_(True)),
            "host": np.float32(2.5),
        }
    )
    assert logs == {"loss": float(np.float32(0.1)), "steps": 7, "stopped": True, "host": 2.5}
    assert {k: type(v) for k, v in logs.items()} == {
        "loss": float,
        "steps": int,
        "stopped": bool,
        "host": float,
    }


def test_other_values_pass_through_or_become_arrays():
    logs = to_python(
        {
            "one": ops.convert_to_tensor(np.array([4.0], "float32")),
            "lr": 0.01,
            "name": "x",
            "none": None,
            "pair": ops.convert_to_tensor(np.array([1.0, 2.0], "float32")),
        }
    )
    assert logs["one"] == 4.0 and isinstance(logs["one"], float)
    assert (logs["lr"], logs["name"], logs["none"]) == (0.01, "x", None)
    np.testing.assert_array_equal(logs["pair"], [1.0, 2.0])
    assert to_python(None) == {}


def test_logs_are_sorted_by_key_and_nested_dicts_flattened_as_in_keras():
    logs = to_python(
        {"loss": 1.0, "accuracy": 0.5, "val_loss": 2.0, "f1": {"f1_b": 0.2, "f1_a": 0.1}}
    )
    assert list(logs) == ["accuracy", "f1_a", "f1_b", "loss", "val_loss"]
