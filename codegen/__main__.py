"""``python -m codegen [--check] [--plugin PATH/ops.yaml]``: regenerate (or verify) generated
files: volta's own (from the repository's ops.yaml), or with ``--plugin`` an operator package's
``_generated/`` beside its yaml (see :mod:`codegen.plugin`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codegen.loader import YamlError
from codegen.plugin import generate_plugin
from codegen.run import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m codegen", description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="fail if any generated file differs from what would be written")
    parser.add_argument("--root", default=".", help="repository root (holds ops.yaml)")
    parser.add_argument("--plugin", type=Path,
                        help="an operator package's yaml: write its _generated/ package")
    args = parser.parse_args(argv)
    root = Path(args.root)
    try:
        if args.plugin is not None:
            # the volta whose emitters and formula helpers run here, source tree or installed
            outputs = generate_plugin(args.plugin, Path(__file__).resolve().parent.parent)
        else:
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
            again = "python -m codegen" + (f" --plugin {args.plugin}" if args.plugin else "")
            print(f"codegen: stale generated file {p} (run `{again}`)", file=sys.stderr)
        return 1
    if not args.check:
        print(f"codegen: wrote {len(stale)} file(s), {len(outputs) - len(stale)} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
