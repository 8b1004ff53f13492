"""The beat task reaches a real worker through the configured broker (Redis in CI)."""

import os
import threading

import pytest
from celery._state import _set_task_join_will_block
from celery.contrib.testing.worker import start_worker

from config.celery import app as celery_app
from ordinance import deadlines
from ordinance.sweeps import SweepResult


def drop_cached_connections():
    """Forget which broker connection pool and producer pool the app cached.

    Any earlier ``.delay()`` (even an eager one) makes the app cache the pools of the
    broker configured then; a message published through them would go to that broker
    (another folder of the filesystem broker) and never reach this test's worker. Celery
    resets the same two references after a fork. The pools themselves stay open: kombu
    keeps them in its global registry, one per broker, for whoever asks for that broker.
    """
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def real_broker(tmp_path, monkeypatch):
    url = os.environ.get("CELERY_BROKER_URL", "")
    conf = celery_app.conf
    saved = {k: conf[k] for k in ("broker_url", "broker_transport_options", "task_always_eager")}
    if not url.startswith("redis://"):
        # Without Redis, the embedded filesystem broker `make run` uses, in a scratch folder.
        url = "filesystem://"
        conf.broker_transport_options = {
            "data_folder_in": str(tmp_path),
            "data_folder_out": str(tmp_path),
            "control_folder": str(tmp_path / "control"),
        }
    conf.broker_url = url
    conf.task_always_eager = False
    drop_cached_connections()
    yield url
    for key, value in saved.items():
        conf[key] = value
    drop_cached_connections()
    # The worker's pool marks this process as a worker ("a join would block"), and its
    # thread can do so after start_worker cleared the mark; left set, a later test's
    # eager ``.delay().get()`` raises "Never call result.get() within a task!".
    _set_task_join_will_block(False)


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
