"""A tiny stand-in for matplotlib (pyplot and patches) and for OpenCV's `putText`, recording what
the visualization functions ask of them, installed into `sys.modules` by the fixtures."""

import sys
import types

import numpy as np
import pytest


class Axis:
    """One subplot: keeps the image it shows, its title and whether it was turned off."""

    def __init__(self):
        self.image, self.imshow_kwargs, self.title, self.off = None, None, None, False

    def imshow(self, image, **kwargs):
        self.image, self.imshow_kwargs = np.array(image), kwargs

    def axis(self, value):
        self.off = value == "off"

    def margins(self, **kwargs):
        """Accepted and ignored."""

    def set_title(self, text, fontsize=None):
        self.title = text


class Figure:
    """A figure: keeps its legend handles."""

    def __init__(self):
        self.legend_handles = None

    def subplots_adjust(self, **kwargs):
        """Accepted and ignored."""

    def legend(self, handles, loc):
        self.legend_handles = handles


def fake_matplotlib():
    """(matplotlib, pyplot, patches) fake modules; pyplot records its calls in `calls`."""
    pyplot = types.ModuleType("matplotlib.pyplot")
    pyplot.calls = []

    def subplots(nrows, ncols, **kwargs):
        pyplot.calls.append(("subplots", nrows, ncols, kwargs))
        pyplot.figure = Figure()
        pyplot.axes = np.empty((nrows, ncols), dtype=object)
        for index in np.ndindex(nrows, ncols):
            pyplot.axes[index] = Axis()
        return pyplot.figure, pyplot.axes

    pyplot.subplots = subplots
    pyplot.savefig = lambda **kwargs: pyplot.calls.append(("savefig", kwargs))
    pyplot.show = lambda: pyplot.calls.append(("show",))
    pyplot.close = lambda: pyplot.calls.append(("close",))
    patches = types.ModuleType("matplotlib.patches")
    patches.Patch = lambda color, label: ("Patch", tuple(np.round(color, 4)), label)
    package = types.ModuleType("matplotlib")
    package.pyplot, package.patches = pyplot, patches
    return package, pyplot, patches


@pytest.fixture
def pyplot(monkeypatch):
    """The fake `matplotlib.pyplot`, importable for the test."""
    package, plt, patches = fake_matplotlib()
    monkeypatch.setitem(sys.modules, "matplotlib", package)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", plt)
    monkeypatch.setitem(sys.modules, "matplotlib.patches", patches)
    return plt


@pytest.fixture
def cv2(monkeypatch):
    """A fake `cv2` whose `putText` records (text, origin, scale, color, thickness)."""
    module = types.ModuleType("cv2")
    module.FONT_HERSHEY_SIMPLEX = 0
    module.texts = []

    def put_text(image, text, origin, font, scale, color, thickness):
        module.texts.append((text, origin, scale, color, thickness))
        return image

    module.putText = put_text
    monkeypatch.setitem(sys.modules, "cv2", module)
    return module
