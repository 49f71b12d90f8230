"""The `.keras` archive: a zip (or, unzipped, a folder) of `metadata.json`, `config.json`,
`model.weights.h5` and the objects' asset files under `assets/`, written atomically and read
with every member checked first.

Reading refuses member names that could escape a folder (absolute paths, `..`, backslashes,
drive letters), duplicate or encrypted members, members larger than the limits below, and
compressed members whose size ratio betrays a decompression bomb; sizes are enforced while
reading, not only as declared. Only asset files are extracted under their own (checked) names,
into a private temporary folder; nothing else is.
"""

import contextlib
import io
import json
import os
import shutil
import tempfile
import zipfile
import zlib

from tripod.saving import atomic
from tripod.saving.h5_store import FileFormatError

CONFIG = "config.json"
METADATA = "metadata.json"
WEIGHTS = "model.weights.h5"
ASSETS = "assets"
REQUIRED = (CONFIG, WEIGHTS)
#: limits on what tripod reads from an archive
MAX_JSON_BYTES = 256 * 1024**2
MAX_WEIGHTS_BYTES = 256 * 1024**3
MAX_MEMBERS = 10_000
MAX_COMPRESSION_RATIO = 200
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_CHUNK = 1024**2


# -- writing --------------------------------------------------------------------------------------
def _zip_member(archive, name, source):
    """Add `source` (bytes, or a path to copy) as `name`, stored, with a fixed timestamp."""
    info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
    info.compress_type = zipfile.ZIP_STORED
    if isinstance(source, bytes):
        archive.writestr(info, source)
        return
    info.file_size = os.path.getsize(source)
    with open(source, "rb") as src, archive.open(info, "w", force_zip64=True) as dst:
        shutil.copyfileobj(src, dst, _CHUNK)


def files_under(root):
    """The relative paths of the files under `root`, sorted ('/'-separated)."""
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(found)


def write_archive(
    path, config, metadata, write_weights, write_assets=None, zipped=True, overwrite=True
):
    """Save an archive at `path`; `write_weights(h5_path)` writes the weights file and
    `write_assets(folder)`, when given, the asset files into an empty `folder`."""
    texts = {METADATA: json.dumps(metadata).encode(), CONFIG: json.dumps(config).encode()}
    if not zipped:
        with atomic.atomic_dir(path, overwrite) as folder:
            for name, data in texts.items():
                with open(os.path.join(folder, name), "wb") as f:
                    f.write(data)
            write_weights(os.path.join(folder, WEIGHTS))
            _write_assets(write_assets, os.path.join(folder, ASSETS))
        return
    with atomic.atomic_file(path, overwrite) as tmp, tempfile.TemporaryDirectory() as work:
        weights = os.path.join(work, WEIGHTS)
        write_weights(weights)
        assets = os.path.join(work, ASSETS)
        _write_assets(write_assets, assets)
        with zipfile.ZipFile(tmp, "w", allowZip64=True) as archive:
            for name, data in texts.items():
                _zip_member(archive, name, data)
            _zip_member(archive, WEIGHTS, weights)
            for name in files_under(assets) if os.path.isdir(assets) else ():
                _zip_member(archive, f"{ASSETS}/{name}", os.path.join(assets, name))


def _write_assets(write_assets, folder):
    """Run `write_assets(folder)`; leave no `folder` behind when it wrote no file."""
    if write_assets is None:
        return
    os.makedirs(folder)
    write_assets(folder)
    if not files_under(folder):
        shutil.rmtree(folder)


# -- reading --------------------------------------------------------------------------------------
def _check_member_name(path, name):
    parts = name.split("/")
    if (
        not name
        or name.startswith("/")
        or "\\" in name
        or "\x00" in name
        or ":" in parts[0]
        or any(part == ".." for part in parts)
        or len(name) > 1024
    ):
        raise FileFormatError(
            f"{path}: refusing zip member {name!r}: its name could escape a folder."
        )


def _checked_infos(path, archive):
    """The archive's members by name, after checking names, duplicates, flags and sizes."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise FileFormatError(
            f"{path}: the archive holds {len(infos)} members, more than {MAX_MEMBERS}."
        )
    by_name = {}
    for info in infos:
        _check_member_name(path, info.filename)
        if info.filename in by_name:
            raise FileFormatError(f"{path}: the archive holds member {info.filename!r} twice.")
        if info.flag_bits & 0x1:
            raise FileFormatError(f"{path}: member {info.filename!r} is encrypted.")
        limit = MAX_JSON_BYTES if info.filename.endswith(".json") else MAX_WEIGHTS_BYTES
        if info.file_size > limit:
            raise FileFormatError(
                f"{path}: member {info.filename!r} declares {info.file_size} bytes, more than "
                f"the limit of {limit}."
            )
        if (
            info.compress_type != zipfile.ZIP_STORED
            and info.file_size > _CHUNK
            and (info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1))
        ):
            raise FileFormatError(
                f"{path}: member {info.filename!r} would expand {info.file_size // max(info.compress_size, 1)}"
                "-fold; refusing a likely decompression bomb."
            )
        by_name[info.filename] = info
    for name in REQUIRED:
        if name not in by_name:
            raise FileFormatError(
                f"{path}: the archive has no {name!r} member; it is not a complete .keras file."
            )
    return by_name


def _copy_limited(src, dst, limit, what):
    """Copy at most `limit` bytes from `src` to `dst`; fail if there is more."""
    total = 0
    while True:
        chunk = src.read(_CHUNK)
        if not chunk:
            return total
        total += len(chunk)
        if total > limit:
            raise FileFormatError(f"{what} holds more data than its declared {limit} bytes.")
        dst.write(chunk)


def _read_member(path, archive, info, dst):
    what = f"{path}: member {info.filename!r}"
    try:
        with archive.open(info) as src:
            _copy_limited(src, dst, info.file_size, what)
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error) as e:
        raise FileFormatError(f"{what} is corrupt or truncated: {e}") from e


def _parse_json(data, what):
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise FileFormatError(f"{what} is not valid JSON: {e}") from e
    if not isinstance(value, dict):
        raise FileFormatError(f"{what} should hold a JSON object.")
    return value


@contextlib.contextmanager
def open_archive(path):
    """Yield (config, metadata, weights file path, assets folder or None) of a `.keras` zip or
    folder, all checked."""
    path = os.fspath(path)
    if os.path.isdir(path):
        yield _read_folder(path)
        return
    if not os.path.isfile(path):
        raise FileNotFoundError(f"No such file or folder: {path}")
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise FileFormatError(
            f"{path} is not a valid .keras zip archive (truncated or corrupt?): {e}"
        ) from e
    with archive, tempfile.TemporaryDirectory() as work:
        infos = _checked_infos(path, archive)
        texts = {}
        for name in (CONFIG, METADATA):
            if name in infos:
                buffer = io.BytesIO()
                _read_member(path, archive, infos[name], buffer)
                texts[name] = _parse_json(buffer.getvalue(), f"{path}: {name}")
        weights = os.path.join(work, WEIGHTS)
        with open(weights, "wb") as f:
            _read_member(path, archive, infos[WEIGHTS], f)
        yield (
            texts[CONFIG],
            texts.get(METADATA, {}),
            weights,
            _extract_assets(path, archive, infos, work),
        )


def _extract_assets(path, archive, infos, work):
    """Extract the `assets/` members (names checked already) under `work`; their folder, or
    None when there are none."""
    members = [info for name, info in infos.items() if name.startswith(f"{ASSETS}/")]
    for info in members:
        if info.is_dir():
            continue
        target = os.path.join(work, *info.filename.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            _read_member(path, archive, info, f)
    return os.path.join(work, ASSETS) if members else None


def _read_folder(path):
    texts = {}
    for name in (CONFIG, METADATA, WEIGHTS):
        member = os.path.join(path, name)
        if os.path.islink(member):
            raise FileFormatError(
                f"{path}: {name} is a symbolic link; tripod refuses links in a saved model."
            )
        if not os.path.isfile(member):
            if name in REQUIRED:
                raise FileFormatError(
                    f"{path}: the folder has no {name!r}; it is not a complete saved model."
                )
            continue
        limit = MAX_JSON_BYTES if name.endswith(".json") else MAX_WEIGHTS_BYTES
        if os.path.getsize(member) > limit:
            raise FileFormatError(f"{path}: {name} is larger than the limit of {limit} bytes.")
        if name.endswith(".json"):
            with open(member, "rb") as f:
                texts[name] = _parse_json(f.read(), f"{path}: {name}")
    return texts[CONFIG], texts.get(METADATA, {}), os.path.join(path, WEIGHTS), _assets_folder(path)


def _assets_folder(path):
    """The `assets` folder of a saved-model folder (None without one); links refused."""
    assets = os.path.join(path, ASSETS)
    if not os.path.isdir(assets):
        return None
    for folder, subfolders, names in os.walk(assets):
        for name in subfolders + names:
            if os.path.islink(os.path.join(folder, name)):
                raise FileFormatError(
                    f"{path}: {ASSETS} holds the symbolic link {name!r}; tripod refuses links "
                    "in a saved model."
                )
    return assets
