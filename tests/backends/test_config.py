"""Backend selection and config, each case in a fresh interpreter."""

import json
import os
import subprocess
import sys

import pytest

from tripod.backends import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Each case starts fresh interpreters and does not depend on the backend under test: run them
# once, in the numpy run of the matrix.
pytestmark = pytest.mark.skipif(
    config.backend() != "numpy", reason="backend selection is tested once, in the numpy run"
)


def run(code, env=None, home=None):
    """Run `code` in a fresh interpreter with a clean TRIPOD_* environment; return the result."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("TRIPOD_", "KERAS_"))}
    full_env["TRIPOD_HOME"] = str(home) if home else os.path.join(ROOT, "no-such-dir")
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", code],
        env=full_env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_env_var_selects_the_backend():
    out = run("import tripod; print(tripod.config.backend())", {"TRIPOD_BACKEND": "numpy"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_config_file_selects_backend_and_settings(tmp_path):
    settings = {"backend": "numpy", "floatx": "float64", "image_data_format": "channels_first"}
    (tmp_path / "tripod.json").write_text(json.dumps(settings))
    code = "import tripod as t; c = t.config; print(c.backend(), c.floatx(), c.image_data_format())"
    out = run(code, home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["numpy", "float64", "channels_first"]


def test_env_var_beats_config_file(tmp_path):
    (tmp_path / "tripod.json").write_text(json.dumps({"backend": "no-such-backend"}))
    out = run(
        "import tripod; print(tripod.config.backend())", {"TRIPOD_BACKEND": "numpy"}, tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_keras_backend_selects_the_backend_when_tripod_backend_is_unset(tmp_path):
    (tmp_path / "tripod.json").write_text(json.dumps({"backend": "no-such-backend"}))
    out = run("import tripod; print(tripod.config.backend())", {"KERAS_BACKEND": "numpy"}, tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_tripod_backend_beats_keras_backend():
    out = run(
        "import tripod; print(tripod.config.backend())",
        {"TRIPOD_BACKEND": "numpy", "KERAS_BACKEND": "theano"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


def test_max_epochs_and_steps_come_from_the_environment():
    code = "import tripod; c = tripod.config; print(c.max_epochs(), c.max_steps_per_epoch())"
    out = run(
        code,
        {"TRIPOD_BACKEND": "numpy", "KERAS_MAX_EPOCHS": "3", "TRIPOD_MAX_STEPS_PER_EPOCH": "5"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "5"]


def test_unknown_backend_lists_the_valid_ones():
    out = run("import tripod", {"TRIPOD_BACKEND": "theano"})
    assert out.returncode != 0
    assert "Unknown tripod backend 'theano'" in out.stderr
    for name in config.BACKENDS:
        assert name in out.stderr


@pytest.mark.parametrize("name", ["jax", "torch", "tensorflow"])
def test_missing_framework_names_the_pip_extra(name):
    module = config.FRAMEWORKS[name][0]
    code = f"import sys; sys.modules[{module!r}] = None; import tripod"
    out = run(code, {"TRIPOD_BACKEND": name})
    assert out.returncode != 0
    assert f"pip install 'tripod[{name}]'" in out.stderr


def test_default_is_the_first_installed_framework():
    code = "import sys; sys.modules['jax'] = None; import tripod; print(tripod.config.backend())"
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "torch"


_LOADED = "print(' '.join(m for m in ('jax', 'torch', 'tensorflow') if m in sys.modules))"


@pytest.mark.parametrize("name", ["jax", "torch", "tensorflow", "numpy"])
def test_import_loads_only_the_selected_framework(name):
    # The framework's own imports are its business (tensorflow imports jax when it is there).
    module = config.FRAMEWORKS[name][0]
    baseline = run(f"import sys, {module}; {_LOADED}")
    out = run(f"import sys, tripod; {_LOADED}", {"TRIPOD_BACKEND": name})
    assert out.returncode == 0, out.stderr
    allowed = set(baseline.stdout.split()) | {name}
    assert set(out.stdout.split()) <= allowed, (
        f"tripod on {name} also imported {set(out.stdout.split()) - allowed}"
    )


def test_setters_validate():
    with pytest.raises(ValueError, match="float"):
        config.set_floatx("int32")
    with pytest.raises(ValueError, match="channels"):
        config.set_image_data_format("channels_middle")
    assert config.standardize_data_format(None) == config.image_data_format()
