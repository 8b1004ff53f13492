"""`make bench-web`: the pages a clerk opens most, at full size, side by
side with the bare Django page of ../shared/bench/ (README.md there).

    .venv/bin/python tests/bench/bench_web.py            # what `make bench-web` runs

1. A PostgreSQL database (BENCH_DB, dropped and created) migrated and loaded with
   ``demo_data --size BENCH_ANIMALS`` (200,000 by default), then ANALYZE. BENCH_KEEP_DB=1
   keeps it (and the bare site's) for the next run, which then skips the load: the
   database's comment says what was loaded.
2. The app with production settings (DJANGO_DEBUG=false, a new secret key, static files
   collected for whitenoise) under gunicorn with 5 workers, and the bare site under the
   same gunicorn settings on the same database server, each on a free port.
3. A session for the demo clerk (North Branch; clerks have no second step), a license of
   that city and its animal; the queries each page runs (Django's test client, after one
   warm-up request, as a gunicorn worker serves it).
4. ../shared/bench/perf-pair.sh (wrk) on the license page and the animal page against the
   bare detail page, and on the two floor pages of tests/bench/floor.py (what every staff
   page costs before its own work, with and without the site's layout); p95 of the
   license page at 50 connections; p95 of a registry search (the page, and the results
   as the clerk types) one request at a time. Prints the table with ratios; stops both
   servers and, unless kept, drops both databases (on Ctrl-C or a TERM too).

Plain HTTP on 127.0.0.1: DJANGO_SECURE_SSL_REDIRECT=false (TLS ends at the proxy in
production). No access log on either server. ROUNDS, DUR, CONNS go to perf-pair.sh;
BENCH_PROFILE=1 also prints a cProfile of one request of each page.
"""

import getpass
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
PY = sys.executable
# Both servers alike: no access log (the bare site has none), no control socket (gunicorn
# 27's default path would be shared by the two masters).
GUNICORN = [str(Path(PY).parent / "gunicorn"), "--log-level", "warning", "--no-control-socket"]
WORKERS = os.environ.get("BENCH_WORKERS", "5")
SEARCH_QUERY = "john"
MARKER = "bench-web: demo_data --size {}"

# The goals of (its table), in the units measured.
SEARCH_P95_MS = 30
LICENSE_P95_MS_AT_50 = 100
MIN_RATIO = 0.5
MAX_QUERIES = 10


def log(message):
    print(f"[bench-web {time.strftime('%H:%M:%S')}] {message}", flush=True)


def pg_base() -> str:
    return os.environ.get("BENCH_PG_URL", f"postgres://{getpass.getuser()}@127.0.0.1:5432")


def pg_admin(sql, params=(), dbname="postgres"):
    import psycopg2

    conn = psycopg2.connect(f"{pg_base()}/{dbname}")
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall() if cur.description else None
    finally:
        conn.close()


def db_comment(name):
    rows = pg_admin(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
        (name,),
    )
    return rows[0][0] if rows else None


def recreate_db(name):
    pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    pg_admin(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd, env, cwd=ROOT, capture=False):
    done = subprocess.run(cmd, env=env, cwd=cwd, text=True, capture_output=capture)
    if done.returncode:
        sys.exit(
            f"bench-web: {' '.join(map(str, cmd))} failed\n{done.stdout or ''}{done.stderr or ''}"
        )
    return done.stdout


class Servers:
    """The gunicorns this run started; each stopped (TERM, then KILL) on the way out."""

    def __init__(self):
        self.procs = []

    def start(self, cmd, env, cwd):
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, start_new_session=True)
        self.procs.append(proc)
        return proc

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs = []


def status_of(url, cookie=None) -> int:
    """The status of a GET, redirects not followed (a login redirect must not count)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.build_opener(NoRedirect).open(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_until_up(url, proc, cookie=None):
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"bench-web: the server for {url} exited")
        try:
            return status_of(url, cookie)
        except OSError:
            time.sleep(0.5)
    sys.exit(f"bench-web: {url} did not answer")


def wrk_p95(url, conns, duration, *headers) -> dict:
    threads = "1" if conns == 1 else "2"
    cmd = ["wrk", f"-t{threads}", f"-c{conns}", f"-d{duration}", "--timeout", "10s"]
    cmd += ["-s", str(HERE / "p95.lua")]
    for header in headers:
        cmd += ["-H", header]
    out = subprocess.run([*cmd, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    m = re.search(
        r"p50 ([\d.]+) ms, p95 ([\d.]+) ms, p99 ([\d.]+) ms, (\d+) requests, (\d+) errors, "
        r"(\d+) non-2xx",
        out,
    )
    return {
        "rps": rps,
        "p50": float(m.group(1)),
        "p95": float(m.group(2)),
        "p99": float(m.group(3)),
        "requests": int(m.group(4)),
        "errors": int(m.group(5)) + int(m.group(6)),
    }


def perf_pair(shared, url, cookie, bare_url) -> dict:
    env = {**os.environ, "BARE_URL": bare_url}
    out = subprocess.run(
        ["bash", str(shared / "perf-pair.sh"), url, cookie],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    print(out, end="", flush=True)
    rounds = re.findall(r"project ([\d.]+) req/s .*bare ([\d.]+) req/s", out)
    median = float(re.search(r"median ratio project/bare: ([\d.]+)", out).group(1))
    project = sorted(float(p) for p, _ in rounds)
    bare = sorted(float(b) for _, b in rounds)
    return {"project": project[len(project) // 2], "bare": bare[len(bare) // 2], "ratio": median}


def main():
    animals = int(os.environ.get("BENCH_ANIMALS", "200000"))
    db = os.environ.get("BENCH_DB", "bench_web")
    bare_db = os.environ.get("BENCH_BARE_DB", "bench_web_bare")
    keep = os.environ.get("BENCH_KEEP_DB") == "1"
    shared = Path(os.environ.get("BENCH_SHARED", ROOT.parent / "shared" / "bench")).resolve()
    if not (shared / "perf-pair.sh").exists():
        sys.exit(f"bench-web: no perf-pair.sh in {shared} (set BENCH_SHARED)")
    if not shutil.which("wrk"):
        sys.exit("bench-web: needs wrk (apt-get install wrk)")

    tmp = Path(tempfile.mkdtemp(prefix="bench-web-"))
    app_env = {
        **os.environ,
        "DATABASE_URL": f"{pg_base()}/{db}",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_STATIC_ROOT": str(tmp / "static"),
        "DJANGO_MEDIA_ROOT": str(tmp / "media"),
        # The app's settings plus the two floor pages (tests/bench/floor.py).
        "DJANGO_SETTINGS_MODULE": "tests.bench.floor_settings",
    }
    # The shared folder is read, never written (no __pycache__ there).
    bare_env = {
        **os.environ,
        "DATABASE_URL": f"{pg_base()}/{bare_db}",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    servers = Servers()
    # A TERM (a CI timeout, `kill`) unwinds like Ctrl-C: the servers stop, the databases go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bench-web: stopped"))
    try:
        marker = MARKER.format(animals)
        if db_comment(db) == marker:
            log(f"{db} already holds demo_data --size {animals}: not loading it again")
            run([PY, "manage.py", "migrate", "--noinput", "-v0"], app_env)
        else:
            log(f"creating {db}, migrating, loading demo_data --size {animals}")
            recreate_db(db)
            run([PY, "manage.py", "migrate", "--noinput", "-v0"], app_env)
            started = time.monotonic()
            run([PY, "manage.py", "demo_data", "--size", str(animals)], app_env)
            log(f"loaded in {time.monotonic() - started:.0f} s")
            pg_admin(f'COMMENT ON DATABASE "{db}" IS %s', (marker,))
        pg_admin("ANALYZE", dbname=db)
        if db_comment(bare_db) != marker:
            log(f"creating {bare_db} and seeding the bare site with {animals} things")
            recreate_db(bare_db)
            run([PY, "bare.py", "seed", str(animals)], bare_env, cwd=shared)
            pg_admin(f'COMMENT ON DATABASE "{bare_db}" IS %s', (marker,))
        pg_admin("ANALYZE", dbname=bare_db)
        run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], app_env)

        log("picking the clerk's pages and counting their queries")
        probe = json.loads(
            run([PY, str(HERE / "bench_web.py"), "probe"], app_env, capture=True).splitlines()[-1]
        )
        cookie = f"Cookie: {probe['cookie']}"

        app_port, bare_port = free_port(), free_port()
        app = servers.start(
            [*GUNICORN, "config.wsgi", "-w", WORKERS, "-b", f"127.0.0.1:{app_port}"],
            app_env,
            ROOT,
        )
        bare = servers.start(
            [*GUNICORN, "-w", WORKERS, "-b", f"127.0.0.1:{bare_port}", "bare:application"],
            bare_env,
            shared,
        )
        base = f"http://127.0.0.1:{app_port}"
        urls = {name: base + path for name, path in probe["urls"].items()}
        license_pk = probe["urls"]["license"].strip("/").split("/")[-1]
        for floor in FLOORS:
            urls[floor] = f"{base}/bench-floor/{floor.removeprefix('floor_')}/{license_pk}/"
        bare_detail = f"http://127.0.0.1:{bare_port}/thing/{max(1, animals // 2)}/"
        bare_list = f"http://127.0.0.1:{bare_port}/things/"
        wait_until_up(bare_detail, bare)
        wait_until_up(base + "/", app)
        for url in set(urls.values()):
            status = status_of(url, probe["cookie"])
            if status != 200:
                sys.exit(f"bench-web: {url} answered {status} to the clerk, not 200")
        for url in set(urls.values()):  # warm every worker
            wrk_p95(url, 10, "2s", cookie)
        for url in (bare_detail, bare_list):
            wrk_p95(url, 10, "2s")

        results = {}
        for name in ("license", "animal", *FLOORS):
            log(f"{name} page against the bare page (perf-pair.sh): {urls[name]}")
            results[name] = perf_pair(shared, urls[name], cookie, bare_detail)
        duration = os.environ.get("DUR", "10s")
        log("license page and bare page at 50 connections")
        results["license50"] = wrk_p95(urls["license"], 50, duration, cookie)
        results["bare50"] = wrk_p95(bare_detail, 50, duration)
        log(f"registry search one request at a time: {urls['search']}")
        results["search"] = wrk_p95(urls["search"], 1, duration, cookie)
        typed = [f"{k}: {v}" for k, v in TYPED.items()]
        results["search_typed"] = wrk_p95(urls["search_typed"], 1, duration, cookie, *typed)
        results["bare_list1"] = wrk_p95(bare_list, 1, duration)
    finally:
        servers.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        if not keep:
            for name in (db, bare_db):
                pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print_table(animals, probe, results)


def verdict(ok: bool) -> str:
    return "pass" if ok else "**short**"


def print_table(animals, probe, r):
    q = probe["queries"]
    lic, ani = r["license"], r["animal"]
    mem_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    print()
    print(
        f"{probe['animals']:,} animals, {probe['owners']:,} owners, {probe['licenses']:,} "
        f"licenses on PostgreSQL; {os.cpu_count()} cores, {mem_gb:.0f} GB; gunicorn -w {WORKERS}; "
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}"
    )
    print()
    print("| what | measured | bare | ratio | queries | goal | |")
    print("|---|---|---|---|---|---|---|")
    for key, label in (("search", "page"), ("search_typed", "results as typed (htmx)")):
        s = r[key]
        print(
            f"| registry search (`/search/?q={SEARCH_QUERY}`), {label}, 1 connection | p95 "
            f"{s['p95']:.1f} ms (p50 {s['p50']:.1f}) | p95 {r['bare_list1']['p95']:.1f} ms "
            f"(list page) | | {q[key]} | p95 ≤ {SEARCH_P95_MS} ms, ≤ {MAX_QUERIES} queries | "
            f"{verdict(s['p95'] <= SEARCH_P95_MS and q[key] <= MAX_QUERIES)} |"
        )
    conns = os.environ.get("CONNS", "10")
    for name, label, row in (("license", "license page", lic), ("animal", "animal page", ani)):
        print(
            f"| {label}, {conns} connections | {row['project']:.0f} req/s | {row['bare']:.0f} "
            f"req/s | {row['ratio']:.2f} | {q[name]} | ≥ {MIN_RATIO} × bare, ≤ {MAX_QUERIES} "
            f"queries | {verdict(row['ratio'] >= MIN_RATIO and q[name] <= MAX_QUERIES)} |"
        )
        if name == "license":
            l50, b50 = r["license50"], r["bare50"]
            print(
                f"| license page, 50 connections | p95 {l50['p95']:.0f} ms ({l50['rps']:.0f} "
                f"req/s) | p95 {b50['p95']:.0f} ms ({b50['rps']:.0f} req/s) | "
                f"{l50['rps'] / b50['rps']:.2f} | | p95 ≤ {LICENSE_P95_MS_AT_50} ms | "
                f"{verdict(l50['p95'] <= LICENSE_P95_MS_AT_50)} |"
            )
    for name, label in FLOORS.items():
        row = r[name]
        print(
            f"| {label}, {conns} connections | {row['project']:.0f} req/s | {row['bare']:.0f} "
            f"req/s | {row['ratio']:.2f} | 1 | the floor under every staff page | |"
        )
    print()
    failed = {k: v["errors"] for k, v in r.items() if v.get("errors")}
    if failed:
        print(f"Failed or non-2xx requests (wrk): {failed}")
    print("Where the time goes, one request in-process (Django's test client after a warm-up;")
    print("wall and SQL the mean of 20, templates from one profiled request):")
    for name, t in probe["timing"].items():
        print(
            f"  {name:12} {t['wall_ms']:5.1f} ms: SQL {t['sql_ms']:4.1f} ms in {q[name]} queries, "
            f"templates {t['templates_ms']:4.1f} ms: {probe['urls'][name]}"
        )
    for name, text in probe.get("profiles", {}).items():
        print(f"\ncProfile of one {name} request, the project's functions:\n{text}")


# The floor under the clerk's pages (tests/bench/floor.py): the whole middleware, the role
# and city check and one query, in the site's layout and in a page like the bare one.
FLOORS = {
    "floor_layout": "floor: a staff page in the site's layout, one query",
    "floor_plain": "floor: a staff page without the layout, one query",
}

# The search box asks for its results as the clerk types: the same URL, the results only.
TYPED = {"HX-Request": "true"}


def clerk_pages(clerk) -> dict:
    """The pages measured, as paths: a search, and a license of the clerk's city with a
    receipt (the middle one by id) and that license's animal."""
    from django.urls import reverse

    from licensing.models import License

    licenses = License.objects.filter(
        jurisdiction__in=clerk.jurisdictions.all(), receipt__isnull=False
    ).order_by("pk")
    license = licenses[licenses.count() // 2]
    search = f"{reverse('licensing:search')}?q={SEARCH_QUERY}"
    return {
        "search": search,
        "search_typed": search,
        "license": reverse("licensing:license_detail", args=[license.pk]),
        "animal": reverse("licensing:animal_detail", args=[license.animal_id]),
    }


def measure_pages(clerk, *, runs=20, profile=False) -> dict:
    """Log the clerk in; for each page its queries (the second request, as a warm worker
    serves it), the mean wall and SQL time of ``runs`` requests and the templates' time
    in one profiled request. Returns the session cookie too, for wrk."""
    import cProfile
    import io
    import pstats

    from django.conf import settings
    from django.db import connection
    from django.template.base import Template
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    code = Template.render.__code__  # the time in templates, includes and all
    template_render = (code.co_filename, code.co_firstlineno)
    urls = clerk_pages(clerk)
    client = Client()
    client.force_login(clerk)
    queries, timing, profiles = {}, {}, {}
    for name, url in urls.items():
        headers = TYPED if name == "search_typed" else {}
        response = client.get(url, headers=headers)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code} to the clerk")
        with CaptureQueriesContext(connection) as captured:
            client.get(url, headers=headers)
        queries[name] = len(captured.captured_queries)
        wall = sql = 0.0
        for _ in range(runs):
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                client.get(url, headers=headers)
                wall += time.perf_counter() - started
            sql += sum(float(c["time"]) for c in captured.captured_queries)
        timing[name] = {"wall_ms": wall / runs * 1000, "sql_ms": sql / runs * 1000}
        profiler = cProfile.Profile()
        profiler.runcall(client.get, url, headers=headers)
        stats = pstats.Stats(profiler)
        timing[name]["templates_ms"] = 1000 * sum(
            cumtime
            for (file, line, _), (_, _, _, cumtime, _) in stats.stats.items()
            if (file, line) == template_render
        )
        if profile:
            out = io.StringIO()
            stats.stream = out
            # The project's own functions (not the virtualenv's), by cumulative time.
            stats.sort_stats("cumulative").print_stats(rf"^{re.escape(str(ROOT))}/(?!\.venv)", 25)
            profiles[name] = out.getvalue().strip()
    name = settings.SESSION_COOKIE_NAME
    return {
        "cookie": f"{name}={client.cookies[name].value}",
        "urls": urls,
        "queries": queries,
        "timing": timing,
        "profiles": profiles,
    }


def probe():
    """In the app's environment: prints measure_pages for the demo clerk, as JSON."""
    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from accounts.models import User
    from licensing.models import Animal, License, Owner

    found = measure_pages(
        User.objects.get(username="clerk"), profile=os.environ.get("BENCH_PROFILE") == "1"
    )
    found.update(
        animals=Animal.objects.count(),
        owners=Owner.objects.count(),
        licenses=License.objects.count(),
    )
    print(json.dumps(found))


if __name__ == "__main__":
    probe() if sys.argv[1:2] == ["probe"] else main()
