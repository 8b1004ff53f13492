"""The beat task reaches a real worker through the configured broker (Redis in CI)."""

import os
import threading

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from ordinance import deadlines
from ordinance.sweeps import SweepResult


@pytest.fixture
def real_broker(tmp_path, monkeypatch):
    url = os.environ.get("CELERY_BROKER_URL", "")
    conf = celery_app.conf
    saved = {k: conf[k] for k in ("broker_url", "broker_transport_options", "task_always_eager")}
    if not url.startswith("redis://"):
        # Without Redis, the embedded filesystem broker `make run` uses, in a scratch folder.
        url = "filesystem://"
        conf.broker_transport_options = {"data_folder_in": str(tmp_path),
                                         "data_folder_out": str(tmp_path),
                                         "control_folder": str(tmp_path / "control")}
    conf.broker_url = url
    conf.task_always_eager = False
    yield url
    for key, value in saved.items():
        conf[key] = value


def test_sweep_all_is_delivered_to_a_worker(real_broker, monkeypatch, db):
    ran = threading.Event()

    def fake_sweep(*, now, dry_run=False):
        ran.set()
        return SweepResult(name="probe")

    monkeypatch.setattr(deadlines, "_sweeps", {"probe": fake_sweep})
    from ordinance.tasks import sweep_all

    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        sweep_all.delay()
        assert ran.wait(timeout=20), f"no worker ran the sweep via {real_broker}"
