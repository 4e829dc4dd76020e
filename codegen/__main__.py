"""``python -m codegen [--check] [--yaml ops.yaml]``: regenerate (or verify) generated files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codegen.loader import YamlError
from codegen.run import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="fail if any generated file differs from what would be written")
    parser.add_argument("--root", default=".", help="repository root (holds ops.yaml)")
    args = parser.parse_args(argv)
    root = Path(args.root)
    try:
        outputs = generate(root)
    except YamlError as exc:
        print(f"codegen: {exc}", file=sys.stderr)
        return 2
    stale = []
    for path, text in outputs.items():
        current = path.read_text() if path.exists() else None
        if current != text:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
    if args.check and stale:
        for p in stale:
            print(f"codegen: stale generated file {p} (run `python -m codegen`)", file=sys.stderr)
        return 1
    if not args.check:
        print(f"codegen: wrote {len(stale)} file(s), {len(outputs) - len(stale)} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
