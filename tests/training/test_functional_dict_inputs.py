"""Dict inputs, targets and sample weights are matched by name, never by sorted key order.

The names used here ("zeta" given before "alpha") sort the other way round from the order the
model was given them, so pairing by sorted key would swap them.
"""

import numpy as np
import pytest

import tripod as keras
from tripod import layers, ops
from tripod.backends import config

needs_training = pytest.mark.skipif(
    config.backend() == "numpy", reason="the numpy backend is inference-only"
)

Z = np.array([[3.0, 1.0]], "float32")
A = np.array([[1.0, 0.0]], "float32")
Y = np.array([[1.0]], "float32")


def numpy_of(x):
    return np.asarray(ops.convert_to_numpy(x))


def difference_model():
    """out = sum(zeta - alpha) + 0: inputs of the same shape, so only the values tell a swap."""
    zeta, alpha = keras.Input((2,), name="zeta"), keras.Input((2,), name="alpha")
    head = layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros", name="head")
    return keras.Model([zeta, alpha], head(layers.Subtract()([zeta, alpha])))


def concat_model(as_dict=False):
    """concat(zeta (3 features), alpha (2 features)): a swap moves the columns."""
    zeta, alpha = keras.Input((3,), name="zeta"), keras.Input((2,), name="alpha")
    inputs = {"zeta": zeta, "alpha": alpha} if as_dict else [zeta, alpha]
    return keras.Model(inputs, layers.Concatenate()([zeta, alpha]))


ZETA3 = np.array([[1.0, 2.0, 3.0]], "float32")
ALPHA2 = np.array([[8.0, 9.0]], "float32")
CONCAT = np.array([[1.0, 2.0, 3.0, 8.0, 9.0]], "float32")


# -- inputs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("as_dict", [False, True])
def test_call_and_predict_match_dict_inputs_by_name(as_dict):
    model = concat_model(as_dict)
    feed = {"zeta": ZETA3, "alpha": ALPHA2}
    np.testing.assert_array_equal(numpy_of(model(feed)), CONCAT)
    np.testing.assert_array_equal(model.predict(feed, verbose=0), CONCAT)
    np.testing.assert_array_equal(model.predict_on_batch(feed), CONCAT)


def test_same_shaped_inputs_give_the_hand_computed_result():
    model = difference_model()
    # sum(zeta - alpha) = (3 - 1) + (1 - 0) = 3; swapped it would be -3
    np.testing.assert_allclose(model.predict({"zeta": Z, "alpha": A}, verbose=0), [[3.0]])


def test_dict_keys_map_to_the_dict_inputs_not_to_the_input_names():
    first, second = keras.Input((3,), name="zeta_in"), keras.Input((2,), name="alpha_in")
    model = keras.Model({"x1": first, "x0": second}, layers.Concatenate()([first, second]))
    np.testing.assert_array_equal(model.predict({"x1": ZETA3, "x0": ALPHA2}, verbose=0), CONCAT)


def test_generator_batches_of_dicts_are_matched_by_name():
    model = concat_model()

    def batches():
        yield {"zeta": ZETA3, "alpha": ALPHA2}

    np.testing.assert_array_equal(model.predict(batches(), verbose=0), CONCAT)


def test_evaluate_and_test_on_batch_match_dict_inputs_by_name():
    model = difference_model()
    model.compile(optimizer="sgd", loss="mse")
    feed = {"zeta": Z, "alpha": A}
    # (3 - 1)^2 = 4; swapped (-3 - 1)^2 = 16
    assert model.evaluate(feed, Y, verbose=0) == pytest.approx(4.0)
    assert model.test_on_batch(feed, Y) == pytest.approx(4.0)


@needs_training
@pytest.mark.parametrize("entry", ["fit", "train_on_batch"])
def test_training_matches_dict_inputs_by_name(entry):
    model = difference_model()
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    feed = {"zeta": Z, "alpha": A}
    if entry == "fit":
        model.fit(feed, Y, epochs=1, batch_size=1, shuffle=False, verbose=0)
    else:
        model.train_on_batch(feed, Y)
    # x = zeta - alpha = [2, 1], pred = 3, d(loss)/d(pred) = 2 * (3 - 1) = 4:
    # kernel = 1 - 0.1 * 4 * [2, 1], bias = 0 - 0.1 * 4
    kernel, bias = (w.numpy() for w in model.get_layer("head").weights)
    np.testing.assert_allclose(kernel[:, 0], [0.2, 0.6], rtol=1e-5)
    np.testing.assert_allclose(bias, [-0.4], rtol=1e-5)


@pytest.mark.parametrize("as_dict", [False, True])
def test_missing_or_unknown_input_keys_name_the_expected_keys(as_dict):
    model = concat_model(as_dict)
    with pytest.raises(ValueError, match=r"keys \['zeta', 'alpha'\].*missing: \['alpha'\]"):
        model({"zeta": ZETA3})
    with pytest.raises(ValueError, match=r"keys \['zeta', 'alpha'\].*unexpected: \['beta'\]"):
        model({"zeta": ZETA3, "alpha": ALPHA2, "beta": ALPHA2})


def test_one_input_model_fed_a_dict_uses_the_input_name():
    x = keras.Input((3,), name="features")
    model = keras.Model(x, layers.Identity()(x))
    np.testing.assert_array_equal(numpy_of(model({"features": ZETA3})), ZETA3)
    with pytest.raises(ValueError, match="features"):
        model({"other": ZETA3})


def test_a_list_for_dict_inputs_with_unsorted_keys_is_an_error():
    with pytest.raises(ValueError, match=r"dict of inputs keyed by \['zeta', 'alpha'\]"):
        concat_model(as_dict=True)([ZETA3, ALPHA2])


def test_sequential_fed_a_dict_uses_the_input_name():
    model = keras.Sequential(
        [keras.Input((2,), name="feat"), layers.Dense(1, kernel_initializer="ones")]
    )
    np.testing.assert_allclose(numpy_of(model({"feat": Z})), [[4.0]])
    np.testing.assert_allclose(model.predict({"feat": Z}, verbose=0), [[4.0]])
    with pytest.raises(ValueError, match=r"Sequential .* \['feat'\].*\['other'\]"):
        model({"other": Z})


def test_clone_model_matches_dict_input_tensors_by_name():
    model = concat_model()
    new_zeta, new_alpha = keras.Input((3,), name="new_zeta"), keras.Input((2,), name="new_alpha")
    clone = keras.models.clone_model(model, input_tensors={"zeta": new_zeta, "alpha": new_alpha})
    assert clone.inputs[0] is new_zeta and clone.inputs[1] is new_alpha
    np.testing.assert_array_equal(clone.predict([ZETA3, ALPHA2], verbose=0), CONCAT)


@keras.saving.register_keras_serializable("test_dict_inputs")
class DictDifference(keras.Model):
    """A subclassed model reading its dict input by key: sum(zeta) - sum(alpha), through Dense."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.zeta_head = layers.Dense(1, name="zeta_head")
        self.alpha_head = layers.Dense(1, name="alpha_head")

    def call(self, inputs):
        return ops.subtract(self.zeta_head(inputs["zeta"]), self.alpha_head(inputs["alpha"]))


def test_a_model_built_on_dict_inputs_saves_its_build_config_by_key(tmp_path):
    model = DictDifference()
    feed = {"zeta": ZETA3, "alpha": ALPHA2}
    expected = model.predict(feed, verbose=0)
    assert model.get_build_config() == {"input_shape": {"zeta": (1, 3), "alpha": (1, 2)}}
    model.save(tmp_path / "m.keras")
    loaded = keras.saving.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(feed, verbose=0), expected, rtol=1e-6)


# -- outputs, targets and sample weights ----------------------------------------------------------
def two_output_model(as_dict):
    """Outputs "zeta" (1 unit) and "alpha" (3 units), both predicting zeros."""
    x = keras.Input((1,), name="x")
    zeta = layers.Dense(1, kernel_initializer="zeros", name="zeta")(x)
    alpha = layers.Dense(3, kernel_initializer="zeros", name="alpha")(x)
    return keras.Model(x, {"zeta": zeta, "alpha": alpha} if as_dict else [zeta, alpha])


X1 = np.ones((2, 1), "float32")
YZ = np.full((2, 1), 2.0, "float32")  # mse against zeros: 4
YA = np.full((2, 3), 1.0, "float32")  # mae against zeros: 1


@pytest.mark.parametrize("as_dict", [False, True])
def test_loss_dicts_and_target_dicts_map_by_output_name(as_dict):
    model = two_output_model(as_dict)
    model.compile(optimizer="sgd", loss={"zeta": "mse", "alpha": "mae"})
    logs = model.evaluate(X1, {"zeta": YZ, "alpha": YA}, verbose=0, return_dict=True)
    assert logs["zeta_loss"] == pytest.approx(4.0)
    assert logs["alpha_loss"] == pytest.approx(1.0)
    assert logs["loss"] == pytest.approx(5.0)


@pytest.mark.parametrize("as_dict", [False, True])
def test_sample_weight_dicts_map_by_output_name(as_dict):
    model = two_output_model(as_dict)
    model.compile(optimizer="sgd", loss={"zeta": "mse", "alpha": "mae"})
    weights = {"zeta": np.ones(2, "float32"), "alpha": np.zeros(2, "float32")}
    logs = model.evaluate(
        X1, {"zeta": YZ, "alpha": YA}, sample_weight=weights, verbose=0, return_dict=True
    )
    assert logs["zeta_loss"] == pytest.approx(4.0)
    assert logs["alpha_loss"] == pytest.approx(0.0)
    assert logs["loss"] == pytest.approx(4.0)


@pytest.mark.parametrize("as_dict", [False, True])
def test_target_dict_with_an_unknown_key_is_an_error(as_dict):
    model = two_output_model(as_dict)
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match=r"\['beta'\] that name no model output"):
        model.evaluate(X1, {"zeta": YZ, "beta": YZ}, verbose=0)


def test_target_dict_missing_an_output_with_a_loss_is_an_error():
    model = two_output_model(as_dict=True)
    model.compile(optimizer="sgd", loss={"zeta": "mse", "alpha": "mae"})
    with pytest.raises(ValueError, match="no target for output 'alpha'"):
        model.evaluate(X1, {"zeta": YZ}, verbose=0)


def test_target_dict_may_leave_out_an_output_without_a_loss():
    model = two_output_model(as_dict=True)
    model.compile(optimizer="sgd", loss={"zeta": "mse"})
    assert model.evaluate(X1, {"zeta": YZ}, verbose=0) == pytest.approx(4.0)


def test_dict_outputs_keep_their_names_through_get_config():
    model = two_output_model(as_dict=True)
    clone = keras.Model.from_config(model.get_config())
    assert list(clone.output) == ["zeta", "alpha"]
    assert [clone.output[k].shape for k in ("zeta", "alpha")] == [(None, 1), (None, 3)]
    clone.set_weights(model.get_weights())
    out = clone.predict(X1, verbose=0)
    assert {k: v.shape for k, v in out.items()} == {"zeta": (2, 1), "alpha": (2, 3)}
