from pathlib import Path

from django.conf import settings
from django.core.files.storage import storages
from django.core.management.base import BaseCommand, CommandError

from base.backup import BackupError, Database, backup


class Command(BaseCommand):
    help = "Write the database and every uploaded and archived file to one archive."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output",
            default=str(Path(settings.VAR_DIR) / "backups"),
            help="Directory the archive is written to (default: the var directory's backups/).",
        )
        parser.add_argument("--database", default="default")

    def handle(self, *args, output, database, **options):
        db = Database.from_settings(settings.DATABASES[database])
        try:
            archive = backup(db=db, media=storages["default"], output_dir=Path(output))
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(str(archive))
