"""`python -m tripod.testing parity MODEL.keras INPUTS.npz`: the parity check from a shell.

Exit status: 0 when every backend agrees with the reference, 1 on a violation, 2 on bad usage.
"""

import argparse
import json
import sys

from tripod.testing.parity import check_backend_parity


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m tripod.testing", description="Tools to check tripod models across backends."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    parity = commands.add_parser(
        "parity",
        help="run a .keras model on several backends and compare their outputs",
        description="Run MODEL on each backend in its own process and compare the outputs with "
        "the reference backend's. Exits 0 when all agree, 1 on a violation, 2 on bad usage.",
    )
    parity.add_argument("model", help="a .keras file")
    parity.add_argument(
        "inputs", help="an .npz file: key x (one input), x0, x1, ... (a list), or input names"
    )
    parity.add_argument("--backends", help="comma-separated, default every installed backend")
    parity.add_argument("--reference", help="default numpy if it runs, else the first backend")
    parity.add_argument("--atol", type=float, default=1e-5, help="absolute tolerance (1e-5)")
    parity.add_argument("--rtol", type=float, default=1e-5, help="relative tolerance (1e-5)")
    parity.add_argument("--per-layer", action="store_true", help="also compare every layer")
    parity.add_argument(
        "--import",
        dest="imports",
        action="extend",
        nargs="+",
        default=[],
        metavar="MODULE",
        help="a module that registers custom objects, imported by each backend first",
    )
    parity.add_argument("--timeout", type=float, default=300, help="seconds per backend (300)")
    parity.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser


def main(argv=None):
    """Run the command line; return the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        report = check_backend_parity(
            args.model,
            args.inputs,
            backends=args.backends,
            reference=args.reference,
            atol=args.atol,
            rtol=args.rtol,
            per_layer=args.per_layer,
            imports=args.imports,
            timeout=args.timeout,
        )
    except (TypeError, ValueError) as e:
        parser.error(str(e))
    print(json.dumps(report.to_dict(), indent=2) if args.json else report)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
