#!/usr/bin/env python3
"""Integration test runner: discovers t/integration/test_*.py (stdlib unittest),
runs them against the storbench binary given by --bin, prints each test's
outcome, skip reasons, and a closing 'N passed, N failed, N skipped' line."""
import argparse
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--counts")
    ap.add_argument("pattern", nargs="?", default="test_*.py")
    args = ap.parse_args()
    os.environ["SB_BIN"] = os.path.abspath(args.bin)
    suite = unittest.defaultTestLoader.discover(here, pattern=args.pattern, top_level_dir=here)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
    # a test with failing subTests counts once (their entries name the subtest)
    bad = {getattr(t, "test_case", t).id() for t, _ in result.failures + result.errors}
    failed = len(bad) + len(result.unexpectedSuccesses)
    skipped = len({getattr(t, "test_case", t).id() for t, _ in result.skipped} - bad)
    passed = result.testsRun - failed - skipped
    for test, why in result.skipped:
        print(f"SKIPPED {test.id()}: {why}")
    print(f"integration: {passed} passed, {failed} failed, {skipped} skipped")
    if args.counts:
        with open(args.counts, "w") as f:
            f.write(f"{passed} {failed} {skipped}\n")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
