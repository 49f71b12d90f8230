"""Safe extraction of downloaded tar (plain, gz, bz2, xz) and zip archives into a folder.

Every member is checked before anything is written: absolute names, drive letters, `..`
components, backslashes and NUL bytes are refused, as are device files, FIFOs, encrypted zip
members, links whose target lies outside the folder and members written through a link. Files
and folders are written first into a fresh temporary folder beside the target, symbolic links
last (each re-checked where it resolves once all exist), and the folder takes the target's place
in one rename only when everything succeeded: a refused archive leaves nothing behind.
"""

import functools
import os
import re
import shutil
import tarfile
import zipfile

from tripod.saving import atomic

#: the archive formats `extract_archive` knows, in the order "auto" tries them
FORMATS = ("tar", "zip")
_DRIVE = re.compile(r"^[A-Za-z]:")
_CHUNK = 1024**2


class UnsafeArchiveError(ValueError):
    """An archive member that could write outside the extraction folder, or is not a plain file,
    folder or link; raised before anything from the archive is kept."""


def _refuse(archive, name, why):
    raise UnsafeArchiveError(f"{archive}: refusing archive member {name!r}: {why}.")


def _checked_parts(archive, name):
    """The path components of member `name`, after refusing names that could escape a folder."""
    if not name or "\x00" in name or "\\" in name:
        _refuse(archive, name, "its name is empty or holds a NUL byte or a backslash")
    if name.startswith("/") or _DRIVE.match(name):
        _refuse(archive, name, "it has an absolute path")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        _refuse(archive, name, "its path has a '..' component")
    return parts


def _inside(root, path):
    """Whether `path`, with every link resolved, lies in the folder `root`."""
    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(path)]) == real_root


def _destination(archive, root, name, links):
    """Where member `name` goes under `root`; refused when it would pass through a link member."""
    parts = _checked_parts(archive, name)
    for depth in range(1, len(parts)):
        if "/".join(parts[:depth]) in links:
            _refuse(archive, name, "it would be written through a link in the archive")
    dest = os.path.join(root, *parts)
    if not _inside(root, dest):
        _refuse(archive, name, "it would be written outside the extraction folder")
    return "/".join(parts), dest


def _write(archive, name, dest, open_source):
    """Copy the stream that `open_source()` opens into a new file at `dest`."""
    if os.path.isdir(dest):
        _refuse(archive, name, "a folder of that name is already in the archive")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open_source() as source, open(dest, "wb") as out:
        shutil.copyfileobj(source, out, _CHUNK)


# -- tar ------------------------------------------------------------------------------------------
def _check_symlink(archive, member, key):
    target = member.linkname
    if not target or target.startswith("/") or _DRIVE.match(target) or "\x00" in target:
        _refuse(archive, member.name, f"it links to {target!r}, an absolute or empty path")
    resolved = os.path.normpath(os.path.join(os.path.dirname(key), target))
    if resolved == ".." or resolved.startswith("../"):
        _refuse(archive, member.name, f"it links to {target!r}, outside the extraction folder")


def _copy_hardlink(archive, root, member, dest, links):
    """A hard link becomes a copy of the earlier regular file it names, checked like a member."""
    try:
        key, source = _destination(archive, root, member.linkname, links)
    except UnsafeArchiveError as e:
        raise UnsafeArchiveError(
            f"{archive}: refusing archive member {member.name!r}: it hard-links to "
            f"{member.linkname!r}, outside the extraction folder."
        ) from e
    if key in links or not os.path.isfile(source) or os.path.islink(source):
        _refuse(
            archive,
            member.name,
            f"it hard-links to {member.linkname!r}, which is not an "
            "earlier regular file of the archive",
        )
    _write(archive, member.name, dest, functools.partial(open, source, "rb"))


def _extract_tar_member(archive, tar, root, member, links):
    key, dest = _destination(archive, root, member.name, links)
    if key in links:
        _refuse(archive, member.name, "the archive already holds a link of that name")
    if member.isdir():
        os.makedirs(dest, exist_ok=True)
    elif member.isreg():
        _write(archive, member.name, dest, functools.partial(tar.extractfile, member))
        os.chmod(dest, (member.mode & 0o755) | 0o600)
    elif member.issym():
        _check_symlink(archive, member, key)
        links[key] = member
    elif member.islnk():
        _copy_hardlink(archive, root, member, dest, links)
    else:
        _refuse(archive, member.name, "it is a device file, FIFO or other special file")


def _make_symlinks(archive, root, links):
    """Create the archive's symbolic links, then refuse any that resolves outside `root`."""
    for key, member in links.items():
        dest = os.path.join(root, *key.split("/"))
        if os.path.lexists(dest):
            _refuse(archive, member.name, "the archive also holds a file or folder of that name")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        os.symlink(member.linkname, dest)
    for key, member in links.items():
        if not _inside(root, os.path.join(root, *key.split("/"))):
            _refuse(
                archive,
                member.name,
                f"it links to {member.linkname!r}, which resolves outside the extraction folder",
            )


def _extract_tar(path, root):
    links = {}
    with tarfile.open(path) as tar:
        for member in tar:
            _extract_tar_member(path, tar, root, member, links)
    _make_symlinks(path, root, links)


# -- zip ------------------------------------------------------------------------------------------
def _extract_zip(path, root):
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            _, dest = _destination(path, root, info.filename, {})
            if info.flag_bits & 0x1:
                _refuse(path, info.filename, "it is encrypted")
            if info.is_dir():
                os.makedirs(dest, exist_ok=True)
            else:
                _write(path, info.filename, dest, functools.partial(archive.open, info))


_KINDS = {"tar": (tarfile.is_tarfile, _extract_tar), "zip": (zipfile.is_zipfile, _extract_zip)}


def _formats(archive_format):
    """The list of formats to try for `archive_format` ("auto", "tar", "zip", a list, or None)."""
    if archive_format is None:
        return []
    if archive_format == "auto":
        return list(FORMATS)
    formats = [archive_format] if isinstance(archive_format, str) else list(archive_format)
    unknown = [kind for kind in formats if kind not in FORMATS]
    if unknown:
        raise ValueError(
            f"archive_format should be 'auto', None, or one or a list of {FORMATS}. "
            f"Received: archive_format={archive_format!r}"
        )
    return formats


def extract_archive(file_path, path, archive_format="auto"):
    """Extract the archive `file_path` into the folder `path` (replacing it); True when it was an
    archive of one of the formats tried, False when it was none of them."""
    file_path, path = os.fspath(file_path), os.fspath(path)
    for kind in _formats(archive_format):
        is_kind, extract = _KINDS[kind]
        if is_kind(file_path):
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            with atomic.atomic_dir(path) as work:
                os.chmod(work, 0o755)
                extract(file_path, work)
            return True
    return False
