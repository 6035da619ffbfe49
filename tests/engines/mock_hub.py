#!/usr/bin/env python3
"""A Hub engine that misbehaves once, for tests/matches.rs (Python 3, standard library only).

It relays every line between its driver and a real Hub engine (`ENGINE hub`), so it plays real
legal moves, except at its first `go` while the file given by --once does not exist yet: then it
creates that file and commits its fault.

    mock_hub.py --engine target/release/rafle --fault illegal|crash|hang|error|late|none
                [--once FILE] [--pids FILE]

Faults:
  illegal  answers `done move=46-5` (no king can be on 46 early in a game)
  crash    exits with status 3
  hang     starts a `sleep` child, then ignores all input (also `stop` and `quit`) for ever
  error    answers `error message="mock failure"` instead of `done`
  late     passes `go` on but holds the engine's `done` until the driver sends `stop`
--pids appends the process ids of this script, the real engine and the `sleep` child, one a line,
so that a test can check that killing the process group killed them all.
"""

import argparse
import os
import subprocess
import sys
import threading
import time

output_lock = threading.Lock()


def say(line):
    with output_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True)
    parser.add_argument("--fault", default="none",
                        choices=["illegal", "crash", "hang", "error", "late", "none"])
    parser.add_argument("--once")
    parser.add_argument("--pids")
    args = parser.parse_args()

    real = subprocess.Popen([args.engine, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    def record_pids(*new):
        if args.pids:
            with open(args.pids, "a") as handle:
                handle.write("".join(f"{pid}\n" for pid in new))

    record_pids(os.getpid(), real.pid)
    state = {"hold": False, "held": None, "release": False}
    state_lock = threading.Lock()

    def relay():
        for line in real.stdout:
            line = line.rstrip("\n")
            if line.startswith("done"):
                with state_lock:
                    if state["hold"] and not state["release"]:
                        state["held"] = line
                        continue
                    state["hold"] = False
                    state["release"] = False
            say(line)

    threading.Thread(target=relay, daemon=True).start()

    def forward(line):
        real.stdin.write(line + "\n")
        real.stdin.flush()

    for line in sys.stdin:
        line = line.rstrip("\n")
        command = line.split()[0] if line.split() else ""
        faulty = args.fault != "none" and (args.once is None or not os.path.exists(args.once))
        if command == "go" and faulty:
            if args.once:
                open(args.once, "w").close()
            if args.fault == "illegal":
                say("done move=46-5")
                continue
            if args.fault == "crash":
                sys.stdout.flush()
                os._exit(3)
            if args.fault == "error":
                say('error message="mock failure"')
                continue
            if args.fault == "hang":
                sleeper = subprocess.Popen(["sleep", "600"])
                record_pids(sleeper.pid)
                while True:
                    time.sleep(1)
            if args.fault == "late":
                with state_lock:
                    state["hold"] = True
                    state["held"] = None
                    state["release"] = False
                forward(line)
                continue
        if command == "stop":
            with state_lock:
                held = state["held"]
                state["held"] = None
                if held is not None:
                    state["hold"] = False
                elif state["hold"]:
                    state["release"] = True
            if held is not None:
                say(held)
                continue
        if command == "quit":
            forward(line)
            break
        forward(line)
    real.stdin.close()
    real.wait()


if __name__ == "__main__":
    main()
