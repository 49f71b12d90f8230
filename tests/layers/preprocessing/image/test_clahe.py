"""`ContrastLimitedAdaptiveHistogramEqualization`."""

import numpy as np
import pytest

from tests.layers.preprocessing.image import checks
from tests.layers.preprocessing.image.deterministic import check_all_deterministic
from tripod.layers.preprocessing.image.clahe import (
    ContrastLimitedAdaptiveHistogramEqualization as CLAHE,
)


def tile_mapping(values, clip_limit):
    """One tile's clipped-histogram equalization: level -> output, as a 256-entry table."""
    hist = np.bincount(values.ravel(), minlength=256).astype("float64")
    if clip_limit > 0:
        limit = clip_limit * values.size / 256
        hist = np.minimum(hist, limit) + np.maximum(hist - limit, 0).sum() / 256
    cdf = np.cumsum(hist)
    span = cdf[-1] - cdf[0]
    return np.clip((cdf - cdf[0]) * 255 / (span if span else 1.0), 0, 255)


def _at(maps, i, j, level):
    """Tile (i, j)'s mapping of `level`, the tile indices clamped to the grid."""
    return maps[min(max(i, 0), len(maps) - 1)][min(max(j, 0), len(maps[0]) - 1)][level]


def clahe(x, clip_limit, grid):
    """Reference CLAHE on 0..255 channels_last images, pixel by pixel."""
    batch, height, width, channels = x.shape
    tile = [-(-size // g) for size, g in zip((height, width), grid)]
    padded = np.pad(
        x,
        [(0, 0), (0, tile[0] * grid[0] - height), (0, tile[1] * grid[1] - width), (0, 0)],
        mode="symmetric",
    ).astype(int)
    out = np.empty(x.shape)
    for b in range(batch):
        for c in range(channels):
            maps = [
                [
                    tile_mapping(
                        padded[
                            b, i * tile[0] : (i + 1) * tile[0], j * tile[1] : (j + 1) * tile[1], c
                        ],
                        clip_limit,
                    )
                    for j in range(grid[1])
                ]
                for i in range(grid[0])
            ]
            for y in range(height):
                for x_ in range(width):
                    gy, gx = (y + 0.5) / tile[0] - 0.5, (x_ + 0.5) / tile[1] - 0.5
                    y0, x0 = int(np.floor(gy)), int(np.floor(gx))
                    wy, wx = gy - y0, gx - x0
                    level = padded[b, y, x_, c]
                    top = _at(maps, y0, x0, level) * (1 - wx) + _at(maps, y0, x0 + 1, level) * wx
                    bottom = (
                        _at(maps, y0 + 1, x0, level) * (1 - wx)
                        + _at(maps, y0 + 1, x0 + 1, level) * wx
                    )
                    out[b, y, x_, c] = top * (1 - wy) + bottom * wy
    return out


def test_passes_the_shared_checks():
    check_all_deterministic(CLAHE, {"tile_grid_size": (2, 3)}, checks.images())


@pytest.mark.parametrize(
    "clip_limit, grid", [(4.0, (2, 3)), (0.0, (3, 3)), (1.5, (1, 1)), (2.0, (8, 8))]
)
def test_matches_a_pixel_by_pixel_reference(clip_limit, grid):
    x = np.floor(checks.images(batch=2, height=9, width=10, channels=2, high=180))
    out = checks.to_numpy(CLAHE(clip_limit=clip_limit, tile_grid_size=grid)(x))
    np.testing.assert_allclose(out, clahe(x, clip_limit, grid), rtol=1e-4, atol=1e-3)


def test_works_in_the_unit_range():
    x = np.floor(checks.images(batch=1, high=256)) / 255.0
    out = checks.to_numpy(CLAHE(value_range=(0, 1), tile_grid_size=(2, 2))(x))
    np.testing.assert_allclose(
        out, clahe(np.round(x * 255), 4.0, (2, 2)) / 255.0, rtol=1e-4, atol=1e-5
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"clip_limit": -1}, "`clip_limit` must be"),
        ({"tile_grid_size": (0, 2)}, "`tile_grid_size` must be"),
        ({"tile_grid_size": 4}, "`tile_grid_size` must be"),
    ],
)
def test_rejects_bad_arguments(kwargs, message):
    with pytest.raises(
        ValueError, match=f"ContrastLimitedAdaptiveHistogramEqualization 'c': {message}"
    ):
        CLAHE(name="c", **kwargs)
