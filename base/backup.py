"""Backups that restore: the database and every uploaded or archived
file, in one archive with a manifest of SHA-256 checksums.

``manage.py backup`` writes ``backup-<time>.tar``: ``database.dump`` (PostgreSQL's
``pg_dump`` custom format, one consistent snapshot) or ``database.sqlite3`` (SQLite's
online backup API), ``media/`` (certificates, photos, evidence and the archived PDFs
of issued documents), and ``manifest.json`` (what was taken, each file's checksum).
``manage.py restore <archive>`` checks every checksum first, then loads the database
into an empty one and puts the files back; it refuses a database that has tables.

The files are read and put back through a Django storage (``listdir``, ``open``,
``exists``, ``save``), so the same code takes them from the local media folder or from
an object-store bucket.
"""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from django.core.files import File

FORMAT = 1
CHUNK = 1024 * 1024


class BackupError(Exception):
    pass


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass
class Database:
    """What ``pg_dump``/``pg_restore`` or SQLite need from a ``DATABASES`` entry."""

    vendor: str
    name: str
    user: str = ""
    password: str = ""
    host: str = ""
    port: str = ""

    @classmethod
    def from_settings(cls, entry: dict) -> "Database":
        engine = entry["ENGINE"]
        vendor = (
            "postgresql" if "postgresql" in engine else "sqlite" if "sqlite" in engine else engine
        )
        return cls(
            vendor=vendor,
            name=str(entry["NAME"]),
            user=entry.get("USER") or "",
            password=entry.get("PASSWORD") or "",
            host=entry.get("HOST") or "",
            port=str(entry.get("PORT") or ""),
        )

    def pg_args(self) -> list[str]:
        args = []
        if self.host:
            args += ["--host", self.host]
        if self.port:
            args += ["--port", self.port]
        if self.user:
            args += ["--username", self.user]
        return [*args, "--no-password"]

    def pg_env(self) -> dict:
        env = dict(os.environ)
        if self.password:
            env["PGPASSWORD"] = self.password
        return env


def _run(command: list[str], db: Database) -> None:
    result = subprocess.run(command, env=db.pg_env(), capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{command[0]} failed: {result.stderr.strip()}")


def _dump_database(db: Database, target: Path) -> str:
    if db.vendor == "postgresql":
        path = target / "database.dump"
        _run(
            [
                "pg_dump",
                *db.pg_args(),
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                "--file",
                str(path),
                db.name,
            ],
            db,
        )
        return path.name
    if db.vendor == "sqlite":
        path = target / "database.sqlite3"
        source = sqlite3.connect(db.name)
        copy = sqlite3.connect(path)
        with copy:
            source.backup(copy)  # a consistent copy while the app keeps running
        source.close()
        copy.close()
        return path.name
    raise BackupError(f"No backup for the {db.vendor} database engine.")


def media_files(storage, folder: str = "") -> list[str]:
    """The name of every file in ``storage``, sorted; none when its folder does not exist
    yet."""
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:
        return []
    names = [f"{folder}{name}" for name in files]
    for sub in folders:
        names += media_files(storage, f"{folder}{sub}/")
    return sorted(names)


class _Hashing:
    """A file read through, counting its bytes and their SHA-256 on the way."""

    def __init__(self, handle):
        self.handle, self.digest, self.size = handle, hashlib.sha256(), 0

    def read(self, size=-1):
        data = self.handle.read(size)
        self.digest.update(data)
        self.size += len(data)
        return data


def backup(*, db: Database, media, output_dir: Path, now: datetime | None = None) -> Path:
    """Write one archive and return its path. ``media`` is the Django storage the
    uploads and archived documents are in; each file is streamed from it into the
    archive, hashed on the way."""
    now = now or datetime.now(UTC)
    output_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=output_dir) as work:
        work = Path(work)
        database_file = _dump_database(db, work)
        files = {}
        archive = output_dir / f"backup-{now:%Y%m%dT%H%M%S}.tar"
        with tarfile.open(archive, "w") as tar:
            tar.add(work / database_file, arcname=database_file)
            for name in media_files(media):
                member = tarfile.TarInfo(f"media/{name}")
                member.size, member.mtime = media.size(name), int(now.timestamp())
                with media.open(name, "rb") as handle:
                    reader = _Hashing(handle)
                    tar.addfile(member, reader)
                files[name] = {"sha256": reader.digest.hexdigest(), "size": reader.size}
            manifest = {
                "format": FORMAT,
                "created_at": now.isoformat(),
                "vendor": db.vendor,
                "database_file": database_file,
                "database_sha256": sha256_of(work / database_file),
                "media": files,
            }
            (work / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True))
            tar.add(work / "manifest.json", arcname="manifest.json")
    return archive


def _safe_members(tar: tarfile.TarFile):
    for member in tar.getmembers():
        if (
            member.issym()
            or member.islnk()
            or member.name.startswith("/")
            or ".." in Path(member.name).parts
        ):
            raise BackupError(f"Unsafe path in the archive: {member.name}")
        yield member


def _check(work: Path, manifest: dict) -> None:
    if manifest.get("format") != FORMAT:
        raise BackupError("This archive was written by another version of the backup.")
    if sha256_of(work / manifest["database_file"]) != manifest["database_sha256"]:
        raise BackupError("The database dump does not match its checksum.")
    for relative, entry in manifest["media"].items():
        path = work / "media" / relative
        if not path.is_file() or sha256_of(path) != entry["sha256"]:
            raise BackupError(f"{relative} is missing or does not match its checksum.")


def _pg_is_empty(db: Database) -> bool:
    result = subprocess.run(
        [
            "psql",
            *db.pg_args(),
            "--dbname",
            db.name,
            "--tuples-only",
            "--no-align",
            "--command",
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
        ],
        env=db.pg_env(),
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise BackupError(f"psql failed: {result.stderr.strip()}")
    return result.stdout.strip() == "0"


def _stored_sha256(storage, name: str) -> str:
    digest = hashlib.sha256()
    with storage.open(name, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def restore(*, archive: Path, db: Database, media) -> dict:
    """Check the archive, then load it into an empty database and the Django storage
    ``media`` (the media folder or the bucket); a file already there is left as it is
    when it has the same contents, and refused otherwise."""
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        with tarfile.open(archive, "r") as tar:
            tar.extractall(work, members=list(_safe_members(tar)))
        manifest = json.loads((work / "manifest.json").read_text())
        _check(work, manifest)
        if manifest["vendor"] != db.vendor:
            raise BackupError(
                f"The archive holds a {manifest['vendor']} database; this one is {db.vendor}."
            )
        for relative, entry in manifest["media"].items():
            if media.exists(relative) and _stored_sha256(media, relative) != entry["sha256"]:
                raise BackupError(f"{relative} exists with other contents: not overwritten.")
        if db.vendor == "postgresql":
            if not _pg_is_empty(db):
                raise BackupError(f"Database {db.name} has tables: restore into an empty one.")
            _run(
                [
                    "pg_restore",
                    *db.pg_args(),
                    "--no-owner",
                    "--no-privileges",
                    "--exit-on-error",
                    "--dbname",
                    db.name,
                    str(work / manifest["database_file"]),
                ],
                db,
            )
        else:
            target = Path(db.name)
            if target.exists() and target.stat().st_size > 0:
                raise BackupError(f"{target} exists: restore into an empty database.")
            shutil.copyfile(work / manifest["database_file"], target)
        for relative in manifest["media"]:
            if media.exists(relative):
                continue
            with open(work / "media" / relative, "rb") as handle:
                stored = media.save(relative, File(handle))
            if stored != relative:
                raise BackupError(f"{relative} was stored as {stored}.")
    return manifest
