"""Holds a python-etcd3 lock for a test, as a Python service would take it.

Usage: python3 python_etcd3_lock.py HOST PORT NAME TTL [HOLD_SECONDS LOG]
Prints "held <lease id>" once it holds etcd3.Lock(NAME, ttl=TTL) (the key /locks/NAME), then
releases it when a line "release" (or the end of input) arrives, and prints "released". With
HOLD_SECONDS and LOG it holds that long instead, appending "in python" and "out python" to LOG
as it starts and ends: a record of who held when, for an overlap check.

Debian's python3-etcd3 0.12.0 cannot wait in Lock.acquire() with Debian's tenacity 8.2.1 (an
upstream bug: "wait() missing 1 required positional argument"), so this tries with timeout=0
and waits for the key's next event with the package's own watch_once, as acquire() would.
"""
import sys
import time

import etcd3
from etcd3 import exceptions

host, port, name, ttl = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
client = etcd3.client(host=host, port=port)
lock = client.lock(name, ttl=ttl)
while not lock.acquire(timeout=0):
    try:
        client.watch_once(lock.key, timeout=1)
    except exceptions.WatchTimedOut:
        pass
print("held", lock.lease.id, flush=True)
if len(sys.argv) > 6:
    with open(sys.argv[6], "a") as log:
        log.write("in python\n")
    time.sleep(float(sys.argv[5]))
    with open(sys.argv[6], "a") as log:
        log.write("out python\n")
else:
    for line in sys.stdin:
        if line.strip() == "release":
            break
print("released" if lock.release() else "not ours any more", flush=True)
