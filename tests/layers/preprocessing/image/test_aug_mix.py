"""`AugMix`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tripod.layers.preprocessing.image.aug_mix import AugMix


def test_passes_the_shared_checks():
    # one short chain of the 7 basic operations: the checks concern the layer, and the chains'
    # mixing is checked below (every augmentation drawn at every depth is costly to compile)
    config = {"num_chains": 1, "chain_depth": 1, "all_ops": False}
    checks.check_all(AugMix, config, checks.images())


@pytest.mark.parametrize("all_ops", [True, False])
def test_blends_the_input_with_weighted_chains(all_ops):
    x = checks.images()
    layer = AugMix(num_chains=2, chain_depth=2, all_ops=all_ops, seed=8)
    names = list(layer.augmentations)
    assert len(names) == (11 if all_ops else 7)
    t = layer.get_random_transformation({"images": x})
    out = checks.to_numpy(layer.transform_images(x, t))
    weights = checks.to_numpy(t["chain_mixing_weights"])
    np.testing.assert_allclose(weights.sum(), 1.0, rtol=1e-5)
    mixed = np.zeros_like(x)
    for c, chain_weight in enumerate(weights):
        chain = x
        for d, index in enumerate(checks.to_numpy(t["choices"])[c]):
            if index < len(names):  # the last index is "no operation"
                name = names[int(index)]
                chain = layer.augmentations[name].transform_images(
                    chain, t["chain_transforms"][c][d][name]
                )
        mixed = mixed + chain_weight * checks.to_numpy(chain)
    w = float(checks.to_numpy(t["weight_sample"]))
    assert 0.0 <= w <= 1.0
    np.testing.assert_allclose(out, np.clip(w * x + (1 - w) * mixed, 0, 255), rtol=1e-5, atol=1e-2)


def test_outputs_stay_in_value_range():
    x = checks.images(batch=4, low=0, high=1)
    out = checks.to_numpy(
        AugMix(num_chains=2, chain_depth=2, value_range=(0, 1), factor=0.9, seed=2)(
            x, training=True
        )
    )
    assert out.min() >= 0.0 and out.max() <= 1.0


def test_rejects_bad_arguments():
    with pytest.raises(ValueError, match="AugMix 'a': num_chains must be a positive integer"):
        AugMix(num_chains=0, name="a")
    with pytest.raises(ValueError, match="AugMix 'a': alpha must be a positive number"):
        AugMix(alpha=0, name="a")
