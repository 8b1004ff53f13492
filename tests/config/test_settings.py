import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_in_production_mode():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env |= {
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "test-only-" + "k3y!" * 16,
        "DATABASE_URL": "sqlite:///:memory:",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_mode_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_SECRET_KEY")}
    env["DJANGO_DEBUG"] = "false"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_csp_has_no_unsafe_inline(client, db):
    header = client.get("/login/").headers["Content-Security-Policy"]
    assert "unsafe-inline" not in header and "default-src 'self'" in header
    assert client.get("/login/").headers["X-Frame-Options"] == "DENY"
