"""The shared checks that apply to deterministic image layers (`random = False`): every one of
`checks` except inference identity, plus: the same output in training and at inference."""

import numpy as np

from tests.layers.preprocessing.image import checks


def check_all_deterministic(layer_cls, kwargs, x):
    out = checks.to_numpy(layer_cls(**kwargs)(x, training=True))
    np.testing.assert_allclose(checks.to_numpy(layer_cls(**kwargs)(x, training=False)), out)
    assert out.dtype == np.float32 and out.shape == x.shape
    checks.check_seeded(layer_cls, kwargs, x)
    checks.check_pipeline_matches_eager(layer_cls, kwargs, x)
    checks.check_unbatched(layer_cls, kwargs, x)
    checks.check_channels_first(layer_cls, kwargs, x)
    checks.check_config_round_trip(layer_cls, kwargs)
    checks.check_in_model(layer_cls, kwargs, x)
