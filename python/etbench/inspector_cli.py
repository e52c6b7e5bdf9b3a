"""python3 -m etbench.inspector_cli: the reference's inspector_cli (prints
the Inspector's table; --tsv_path also saves it as TSV)."""

import argparse
import sys

from .inspector import Inspector, TimeScale


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--etdump_path", required=True, help="Provide an ETDump file path.")
    for which, default in (("source", TimeScale.NS), ("target", TimeScale.MS)):
        parser.add_argument(
            f"--{which}_time_scale",
            type=str,
            choices=[ts.value for ts in TimeScale],
            help=f"Enter the {which} time scale (ns, us, ms, s, cycles)",
            default=default.value,
        )
    parser.add_argument("--etrecord_path", required=False, help="Provide an optional ETRecord file path.")
    parser.add_argument("--debug_buffer_path", required=False, help="Provide an optional buffer file path.")
    parser.add_argument("--tsv_path", required=False, help="Provide an optional tsv file path.")
    args = parser.parse_args(argv)
    try:
        inspector = Inspector(
            etdump_path=args.etdump_path,
            etrecord=args.etrecord_path,
            debug_buffer_path=args.debug_buffer_path,
            source_time_scale=TimeScale(args.source_time_scale),
            target_time_scale=TimeScale(args.target_time_scale),
        )
        inspector.print_data_tabular()
        if args.tsv_path:
            inspector.save_data_to_tsv(args.tsv_path)
    except (ValueError, OSError) as e:
        # One line, exit 2, like `etbench inspect`.
        print(f"etbench.inspector_cli: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
