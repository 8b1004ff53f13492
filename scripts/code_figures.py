"""The application code's shape in figures: lines, function lengths, long modules, wide
services. ``python scripts/code_figures.py`` prints them; ``--check`` exits non-zero when
a target is missed (the targets below); ``--list`` names each function and module over.

Counted: every ``.py`` file of the apps (not tests, migrations, scripts or the venv). A
function's length is its lines from ``def`` to its last line, docstring included, nested
functions counted in their own right too. A public service is a function of a module
under ``<app>/services`` (or ``services.py``) whose name does not start with "_"; its
parameters are every argument but ``self``/``cls``.
"""

import argparse
import ast
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"tests", "scripts", "migrations", ".venv", "static", "templates", "node_modules"}

TARGETS = {  # what the code base keeps to (style.md "Short functions, small modules")
    "median function lines": 8,
    "p90 function lines": 25,
    "longest function lines": 80,
    "longest module lines": 600,
    "most service parameters": 8,
}


def app_files(root: Path = ROOT):
    for path in sorted(root.rglob("*.py")):
        parts = set(path.relative_to(root).parts)
        if parts & SKIP or any(p.startswith(".") for p in path.relative_to(root).parts):
            continue
        yield path


def is_service(path: Path, root: Path = ROOT) -> bool:
    rel = path.relative_to(root).parts
    return "services" in rel[:-1] or rel[-1] == "services.py"


def figures(root: Path = ROOT) -> dict:
    functions, modules, services, total = [], [], [], 0
    for path in app_files(root):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        total += lines
        rel = str(path.relative_to(root))
        modules.append((lines, rel))
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            length = node.end_lineno - node.lineno + 1
            functions.append((length, f"{rel}:{node.lineno} {node.name}"))
            if is_service(path, root) and not node.name.startswith("_"):
                args = node.args
                names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
                count = len([n for n in names if n not in ("self", "cls")])
                count += bool(args.vararg) + bool(args.kwarg)
                services.append((count, f"{rel}:{node.lineno} {node.name}"))
    lengths = sorted(length for length, _ in functions)
    return {
        "files": len(modules),
        "lines": total,
        "functions": len(lengths),
        "median function lines": statistics.median(lengths),
        "p90 function lines": lengths[int(0.9 * (len(lengths) - 1))],
        "longest function lines": lengths[-1],
        "functions over 80 lines": sum(1 for n in lengths if n > 80),
        "longest module lines": max(modules)[0],
        "modules over 600 lines": sum(1 for n, _ in modules if n > 600),
        "most service parameters": max(services)[0] if services else 0,
        "services over 8 parameters": sum(1 for n, _ in services if n > 8),
        "_over": {
            "functions": sorted((f for f in functions if f[0] > 80), reverse=True),
            "modules": sorted((m for m in modules if m[0] > 600), reverse=True),
            "services": sorted((s for s in services if s[0] > 8), reverse=True),
        },
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when a target is missed")
    parser.add_argument("--list", action="store_true", help="name what is over a target")
    parser.add_argument("root", nargs="?", default=str(ROOT), help="another checkout")
    options = parser.parse_args(argv)
    found = figures(Path(options.root).resolve())
    over = found.pop("_over")
    missed = []
    for name, value in found.items():
        target = TARGETS.get(name)
        mark = ""
        if target is not None:
            mark = f"  (target {target})" if value <= target else f"  MISSED (target {target})"
            if value > target:
                missed.append(name)
        print(f"{name:28} {value}{mark}")
    if options.list:
        for kind, rows in over.items():
            for size, where in rows:
                print(f"over: {kind:9} {size:5}  {where}")
    return 1 if options.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
