from pathlib import Path

from django.conf import settings
from django.core.files.storage import FileSystemStorage, storages
from django.core.management.base import BaseCommand, CommandError

from base.backup import BackupError, Database, restore


class Command(BaseCommand):
    help = (
        "Restore an archive written by `backup` into an empty database and the media "
        "directory, after checking every file's checksum."
    )

    def add_arguments(self, parser):
        parser.add_argument("archive")
        parser.add_argument("--database", default="default")
        parser.add_argument(
            "--database-name",
            help="Restore into this database instead (same server and user as --database).",
        )
        parser.add_argument(
            "--media-root",
            default=None,
            help="Put the files in this folder instead of the configured storage.",
        )

    def handle(self, *args, archive, database, database_name, media_root, **options):
        db = Database.from_settings(settings.DATABASES[database])
        if database_name:
            db.name = database_name
        try:
            manifest = restore(
                archive=Path(archive),
                db=db,
                # The media folder or bucket configured, or another folder.
                media=FileSystemStorage(location=media_root) if media_root else storages["default"],
            )
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Restored {db.name} and {len(manifest['media'])} files from {manifest['created_at']}."
        )
