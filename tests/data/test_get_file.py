"""`get_file` over local `file://` origins: caching, hashes, atomic downloads, extraction, and
archives that try to write outside their folder."""

import hashlib
import os
import pathlib
import tarfile
import warnings

import pytest

from tests.data import archive_builders as ab
from tripod.data import archives
from tripod.data import get_file as get_file_module
from tripod.data.get_file import get_file, hash_file, validate_file


@pytest.fixture
def source(tmp_path):
    """A file to download and its `file://` origin."""
    path = tmp_path / "src" / "payload.bin"
    path.parent.mkdir()
    path.write_bytes(b"tripod data " * 100)
    return path, path.as_uri()


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "cache"


def _read(path):
    return pathlib.Path(path).read_bytes()


def _leftovers(folder):
    return [name for name in os.listdir(folder) if name.startswith(".")]


def test_download_then_cache_hit_then_force_download(source, cache, capsys):
    path, origin = source
    target = get_file("copy.bin", origin, cache_dir=cache)
    assert target == str(cache / "datasets" / "copy.bin")
    assert _read(target) == path.read_bytes()
    out = capsys.readouterr().out
    assert f"Downloading data from {origin}" in out and "1200/1200" in out
    path.write_bytes(b"changed")
    assert _read(get_file("copy.bin", origin, cache_dir=cache)) != b"changed"
    assert "Downloading" not in capsys.readouterr().out
    get_file("copy.bin", origin, cache_dir=cache, force_download=True)
    assert _read(target) == b"changed"
    assert _leftovers(cache / "datasets") == []


def test_file_name_from_origin_and_cache_subdir(source, cache):
    _, origin = source
    target = get_file(origin=origin, cache_dir=cache, cache_subdir="models")
    assert target == str(cache / "models" / "payload.bin")


def test_keras_home_is_the_default_cache(source, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path / "home"))
    target = get_file(origin=source[1])
    assert target == str(tmp_path / "home" / "datasets" / "payload.bin")


def test_unwritable_cache_falls_back_to_tmp_keras(source, cache, tmp_path, monkeypatch):
    real_access = os.access
    monkeypatch.setattr(get_file_module, "_temp_root", lambda: str(tmp_path / "tmp"))
    monkeypatch.setattr(
        get_file_module.os, "access", lambda p, mode: p != str(cache) and real_access(p, mode)
    )
    target = get_file(origin=source[1], cache_dir=cache)
    assert target == str(tmp_path / "tmp" / ".keras" / "datasets" / "payload.bin")


@pytest.mark.parametrize("algorithm", ["sha256", "md5"])
def test_correct_hash_accepted(source, cache, algorithm):
    path, origin = source
    digest = hashlib.new(algorithm, path.read_bytes()).hexdigest()
    assert hash_file(path, algorithm) == digest
    assert validate_file(path, digest) and validate_file(path, digest.upper(), algorithm)
    assert os.path.isfile(get_file("a", origin, file_hash=digest, cache_dir=cache))
    assert os.path.isfile(
        get_file(
            "b", origin, md5_hash=hashlib.md5(b"").hexdigest(), file_hash=digest, cache_dir=cache
        )
    )


def test_md5_hash_argument(source, cache):
    path, origin = source
    get_file("c", origin, md5_hash=hashlib.md5(path.read_bytes()).hexdigest(), cache_dir=cache)
    with pytest.raises(ValueError, match="md5"):
        get_file("d", origin, md5_hash="0" * 32, cache_dir=cache)


@pytest.mark.parametrize("wrong", ["0" * 64, "0" * 32])
def test_wrong_hash_of_a_download_raises_and_leaves_no_file(source, cache, wrong):
    with pytest.raises(ValueError, match="hash does not match"):
        get_file("bad.bin", source[1], file_hash=wrong, cache_dir=cache)
    assert os.listdir(cache / "datasets") == []


def test_corrupt_cached_file_is_downloaded_again(source, cache, capsys):
    path, origin = source
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    (cache / "datasets").mkdir(parents=True)
    (cache / "datasets" / "f.bin").write_bytes(b"truncated")
    target = get_file("f.bin", origin, file_hash=digest, cache_dir=cache)
    assert "will be downloaded again" in capsys.readouterr().out
    assert _read(target) == path.read_bytes()


def test_failed_download_is_an_oserror_and_leaves_no_file(tmp_path, cache):
    origin = (tmp_path / "missing.bin").as_uri()
    with pytest.raises(OSError, match="URL fetch failure"):
        get_file(origin=origin, cache_dir=cache)
    assert os.listdir(cache / "datasets") == []


def test_bad_arguments(source, cache):
    with pytest.raises(ValueError, match="origin"):
        get_file("x", cache_dir=cache)
    with pytest.raises(ValueError, match="not a path"):
        get_file("sub/x", source[1], cache_dir=cache)
    with pytest.raises(ValueError, match="hash_algorithm"):
        get_file("x", source[1], file_hash="0" * 64, hash_algorithm="sha1", cache_dir=cache)
    with pytest.raises(ValueError, match="file name"):
        get_file(origin="file:///tmp/..", cache_dir=cache)


# -- extraction -----------------------------------------------------------------------------------
def _good_tar(tar):
    ab.add_file(tar, "data/a.txt", b"alpha")
    ab.add_file(tar, "./b.txt", b"beta")
    ab.add_link(tar, "data/link.txt", "a.txt")
    ab.add_link(tar, "data/hard.txt", "data/a.txt", tarfile.LNKTYPE)


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:bz2", "w:xz"])
def test_extract_tar_named_with_extension(tmp_path, cache, mode):
    archive = ab.write_tar(tmp_path / "pack.tar", _good_tar, mode)
    folder = get_file("pack.tar.gz", archive.as_uri(), extract=True, cache_dir=cache)
    assert folder == str(cache / "datasets" / "pack_extracted")
    assert os.path.isfile(cache / "datasets" / "pack.tar.gz")
    assert _read(os.path.join(folder, "data", "a.txt")) == b"alpha"
    assert _read(os.path.join(folder, "b.txt")) == b"beta"
    assert os.path.islink(os.path.join(folder, "data", "link.txt"))
    assert _read(os.path.join(folder, "data", "link.txt")) == b"alpha"
    assert _read(os.path.join(folder, "data", "hard.txt")) == b"alpha"


def test_extract_zip_named_without_extension(tmp_path, cache):
    archive = ab.write_zip(tmp_path / "z.zip", {"dir/": b"", "dir/c.txt": b"gamma"})
    folder = get_file("bundle", archive.as_uri(), extract=True, cache_dir=cache)
    assert folder == str(cache / "datasets" / "bundle")
    assert os.path.isfile(cache / "datasets" / "bundle_archive")
    assert _read(os.path.join(folder, "dir", "c.txt")) == b"gamma"


def test_extract_with_name_from_origin_and_untar(tmp_path, cache):
    archive = ab.write_tar(tmp_path / "pack.tgz", _good_tar)
    folder = get_file(origin=archive.as_uri(), untar=True, cache_dir=cache)
    assert folder == str(cache / "datasets" / "pack.tgz")
    assert os.path.isfile(cache / "datasets" / "pack.tgz_archive")
    assert os.path.isfile(os.path.join(folder, "b.txt"))


def test_extraction_is_reused_until_the_archive_is_downloaded_again(tmp_path, cache):
    archive = ab.write_tar(tmp_path / "pack.tgz", _good_tar)
    folder = get_file("p", archive.as_uri(), extract=True, cache_dir=cache)
    os.remove(os.path.join(folder, "b.txt"))
    get_file("p", archive.as_uri(), extract=True, cache_dir=cache)
    assert not os.path.exists(os.path.join(folder, "b.txt"))
    get_file("p", archive.as_uri(), extract=True, cache_dir=cache, force_download=True)
    assert os.path.isfile(os.path.join(folder, "b.txt"))


def test_archive_format_restricts_what_is_extracted(tmp_path, cache):
    archive = ab.write_zip(tmp_path / "z.zip", {"c.txt": b"gamma"})
    with pytest.warns(UserWarning, match="could not extract"):
        folder = get_file(
            "q", archive.as_uri(), extract=True, archive_format="tar", cache_dir=cache
        )
    assert not os.path.exists(folder)
    with pytest.raises(ValueError, match="archive_format"):
        archives.extract_archive(archive, tmp_path / "out", "rar")
    assert archives.extract_archive(archive, tmp_path / "out", None) is False


# -- malicious archives ---------------------------------------------------------------------------
def _outside(tmp_path):
    return tmp_path / "outside"


MALICIOUS_TARS = {
    "dotdot": lambda tar, out: ab.add_file(tar, "data/../../outside/evil"),
    "absolute": lambda tar, out: ab.add_file(tar, str(out / "evil")),
    "symlink_out": lambda tar, out: ab.add_link(tar, "link", "../outside"),
    "symlink_absolute": lambda tar, out: ab.add_link(tar, "link", str(out)),
    "write_through_link": lambda tar, out: (
        ab.add_link(tar, "link", "sub"),
        ab.add_file(tar, "link/evil"),
    ),
    "symlink_chain": lambda tar, out: (
        ab.add_link(tar, "up", "self/.."),
        ab.add_link(tar, "self", "."),
    ),
    "hardlink_out": lambda tar, out: ab.add_link(tar, "hard", "../outside/x", tarfile.LNKTYPE),
    "hardlink_absolute": lambda tar, out: ab.add_link(tar, "hard", "/etc/passwd", tarfile.LNKTYPE),
    "char_device": lambda tar, out: ab.add_special(tar, "dev", tarfile.CHRTYPE),
    "block_device": lambda tar, out: ab.add_special(tar, "blk", tarfile.BLKTYPE),
    "fifo": lambda tar, out: ab.add_special(tar, "pipe", tarfile.FIFOTYPE),
}
MEMBER_NAMES = {
    "dotdot": "data/../../outside/evil",
    "absolute": "evil",
    "symlink_out": "link",
    "symlink_absolute": "link",
    "write_through_link": "link/evil",
    "symlink_chain": "up",
    "hardlink_out": "hard",
    "hardlink_absolute": "hard",
    "char_device": "dev",
    "block_device": "blk",
    "fifo": "pipe",
}


def _assert_nothing_written(tmp_path, cache_folder, target):
    assert os.listdir(_outside(tmp_path)) == ["keep.txt"]
    assert not os.path.lexists(target)
    assert _leftovers(cache_folder) == []


@pytest.mark.parametrize("case", sorted(MALICIOUS_TARS))
def test_malicious_tar_is_refused_and_writes_nothing(tmp_path, cache, case):
    _outside(tmp_path).mkdir()
    (_outside(tmp_path) / "keep.txt").write_bytes(b"keep")

    def build(tar):
        ab.add_file(tar, "ok.txt", b"fine")
        MALICIOUS_TARS[case](tar, _outside(tmp_path))

    archive = ab.write_tar(tmp_path / "evil.tar.gz", build)
    with pytest.raises(archives.UnsafeArchiveError, match=MEMBER_NAMES[case]):
        get_file("evil.tar.gz", archive.as_uri(), extract=True, cache_dir=cache)
    _assert_nothing_written(tmp_path, cache / "datasets", cache / "datasets" / "evil_extracted")


@pytest.mark.parametrize(
    "name", ["../outside/evil", "{outside}/abs_evil", "C:/evil", "a\\..\\evil"]
)
def test_malicious_zip_is_refused_and_writes_nothing(tmp_path, name):
    _outside(tmp_path).mkdir()
    (_outside(tmp_path) / "keep.txt").write_bytes(b"keep")
    name = name.format(outside=_outside(tmp_path))
    archive = ab.write_zip(tmp_path / "evil.zip", {"ok.txt": b"fine", name: b"evil"})
    target = tmp_path / "extract" / "here"
    with pytest.raises(archives.UnsafeArchiveError, match="refusing archive member"):
        archives.extract_archive(archive, target)
    _assert_nothing_written(tmp_path, tmp_path / "extract", target)


def test_encrypted_zip_member_is_refused(tmp_path):
    path = ab.write_zip(tmp_path / "locked.zip", {"secret.txt": b"not really encrypted"})
    ab.mark_encrypted(path)
    with pytest.raises(archives.UnsafeArchiveError, match="secret.txt.*encrypted"):
        archives.extract_archive(path, tmp_path / "out")
    assert not os.path.exists(tmp_path / "out")


def test_refused_archive_keeps_the_previous_extraction(tmp_path):
    target = tmp_path / "here"
    assert archives.extract_archive(ab.write_zip(tmp_path / "a.zip", {"a.txt": b"a"}), target)
    evil = ab.write_zip(tmp_path / "b.zip", {"b.txt": b"b", "../x": b"x"})
    with warnings.catch_warnings(), pytest.raises(archives.UnsafeArchiveError):
        archives.extract_archive(evil, target)
    assert os.listdir(target) == ["a.txt"]
