"""`get_file`: download a file once into Keras's cache (`~/.keras/datasets` unless told
otherwise), check its hash, and optionally extract it, as `keras.utils.get_file` does.

Downloads are atomic (a temporary file beside the target, renamed into place only once complete
and hash-checked), so an interrupted or corrupt download never sits in the cache under the final
name. Extraction goes through `tripod.data.archives`, which refuses members that could escape.
"""

import contextlib
import hashlib
import os
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import warnings

from tripod.data import archives
from tripod.saving import atomic
from tripod.training.io_utils import print_msg
from tripod.training.progbar import Progbar

HASH_ALGORITHMS = ("auto", "md5", "sha256")
_CHUNK = 64 * 1024


# -- hashing --------------------------------------------------------------------------------------
def _check_hash_algorithm(algorithm):
    if algorithm not in HASH_ALGORITHMS:
        raise ValueError(
            f"hash_algorithm should be one of {HASH_ALGORITHMS}. Received: {algorithm!r}"
        )


def _hasher(algorithm, file_hash=None):
    """A fresh hashlib object: sha256, md5, or for "auto" sha256 when `file_hash` has 64
    characters and md5 otherwise."""
    _check_hash_algorithm(algorithm)
    if algorithm == "sha256" or (algorithm == "auto" and len(file_hash or "") == 64):
        return hashlib.sha256()
    return hashlib.md5()


def _digest(fpath, hasher, chunk_size):
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def hash_file(fpath, algorithm="sha256", chunk_size=_CHUNK):
    """The hex digest ("sha256" or "md5") of the file at `fpath`, read in chunks."""
    return _digest(fpath, _hasher(algorithm), chunk_size)


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=_CHUNK):
    """Whether the file at `fpath` has the hex digest `file_hash` (algorithm as in `get_file`)."""
    expected = str(file_hash).strip().lower()
    return _digest(fpath, _hasher(algorithm, expected), chunk_size) == expected


# -- where files go -------------------------------------------------------------------------------
def keras_home():
    """Keras's home folder: `$KERAS_HOME`, else `~/.keras` (`/tmp/.keras` when the home folder is
    not writable), so tripod and Keras share one cache."""
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    home = os.path.expanduser("~")
    return os.path.join(home if os.access(home, os.W_OK) else _temp_root(), ".keras")


def _temp_root():
    return "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()


def _cache_folder(cache_dir, cache_subdir):
    """The folder files go to, created; falls back to `/tmp/.keras` when `cache_dir` is not
    writable."""
    base = os.path.expanduser(os.fspath(cache_dir) if cache_dir is not None else keras_home())
    with contextlib.suppress(OSError):
        os.makedirs(base, exist_ok=True)
    if not os.access(base, os.W_OK):
        base = os.path.join(_temp_root(), ".keras")
    folder = os.path.join(base, os.fspath(cache_subdir))
    os.makedirs(folder, exist_ok=True)
    return folder


def _file_name(fname, origin):
    """`fname`, or the last component of `origin`'s path when it is None or empty."""
    if fname:
        fname = os.fspath(fname)
        if os.sep in fname or (os.altsep and os.altsep in fname) or fname in (".", ".."):
            raise ValueError(
                "get_file: `fname` should be a file name, not a path; pass the folder as "
                f"`cache_dir` / `cache_subdir`. Received: fname={fname!r}"
            )
        return fname
    name = os.path.basename(urllib.parse.urlsplit(origin).path)
    if not name or name in (".", "..") or os.path.splitdrive(name)[0]:
        raise ValueError(f"get_file: cannot take a file name from origin={origin!r}; pass `fname`.")
    return name


def _targets(folder, fname, named, extract):
    """(download path, extraction folder or None), following Keras's naming: an archive named
    `data.tar.gz` extracts into `data_extracted/`; one named `data` (or taken from the origin)
    downloads to `data_archive` and extracts into `data/`."""
    if not extract:
        return os.path.join(folder, fname), None
    if named and "." in fname:
        stem = fname[: fname.index(".")]
        return os.path.join(folder, fname), os.path.join(folder, f"{stem}_extracted")
    return os.path.join(folder, f"{fname}_archive"), os.path.join(folder, fname)


# -- downloading ----------------------------------------------------------------------------------
def _open_url(origin):
    try:
        return urllib.request.urlopen(origin)
    except urllib.error.HTTPError as e:
        raise OSError(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from e
    except urllib.error.URLError as e:
        raise OSError(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}") from e


def _copy_with_progress(response, out):
    """Copy the response body into `out`, drawing a `Progbar` of bytes received."""
    length = response.headers.get("Content-Length")
    progbar = Progbar(int(length) if length and length.isdigit() else None)
    received = 0
    for chunk in iter(lambda: response.read(_CHUNK), b""):
        out.write(chunk)
        received += len(chunk)
        progbar.update(received, finalize=False)
    progbar.update(received, finalize=True)


def _download(origin, target, file_hash, hash_algorithm):
    """Fetch `origin` into `target` atomically; ValueError (and no file) on a hash mismatch."""
    print_msg(f"Downloading data from {origin}")
    with atomic.atomic_file(target) as tmp:
        with _open_url(origin) as response, open(tmp, "wb") as out:
            _copy_with_progress(response, out)
        if file_hash is not None and not validate_file(tmp, file_hash, hash_algorithm):
            raise ValueError(
                f"get_file: the file downloaded from {origin} is incomplete or corrupted: its "
                f"{_hasher(hash_algorithm, file_hash).name} hash does not match the expected "
                f"{file_hash}."
            )


def _needs_download(target, file_hash, hash_algorithm, force_download):
    if force_download or not os.path.exists(target):
        return True
    if file_hash is not None and not validate_file(target, file_hash, hash_algorithm):
        algorithm = _hasher(hash_algorithm, file_hash).name
        print_msg(
            f"A local file was found at {target}, but its {algorithm} hash does not match the "
            f"expected {file_hash} (incomplete or outdated), so it will be downloaded again."
        )
        return True
    return False


def get_file(
    fname=None,
    origin=None,
    untar=False,
    md5_hash=None,
    file_hash=None,
    cache_subdir="datasets",
    hash_algorithm="auto",
    extract=False,
    archive_format="auto",
    cache_dir=None,
    force_download=False,
):
    """Download `origin` into the cache unless a file with the right hash is already there;
    return its path, or with `extract`/`untar` the folder it was extracted into."""
    if origin is None:
        raise ValueError("get_file: pass `origin`, the URL of the file to download.")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    _check_hash_algorithm(hash_algorithm)
    extract = extract or untar
    folder = _cache_folder(cache_dir, cache_subdir)
    fname_given = bool(fname)
    fname = _file_name(fname, origin)
    target, extraction_dir = _targets(folder, fname, fname_given, extract)
    downloaded = _needs_download(target, file_hash, hash_algorithm, force_download)
    if downloaded:
        _download(origin, target, file_hash, hash_algorithm)
    if not extract:
        return target
    if downloaded or not os.path.isdir(extraction_dir):
        formats = "tar" if untar else archive_format
        if not archives.extract_archive(target, extraction_dir, formats):
            warnings.warn(
                f"get_file: could not extract {target}: it is not an archive of the format(s) "
                f"{formats!r}.",
                stacklevel=2,
            )
    return extraction_dir
