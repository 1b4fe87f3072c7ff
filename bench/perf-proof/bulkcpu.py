#!/usr/bin/env python3
"""bulkcpu.py SVC REPS: POSTs of 1,000 interfaces, one at a time; objects/s each, median, and CPU ms per request (java, postgres, rest) around each request, the outbox drained before each."""
import os, statistics, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proccpu import proc_cpu, pg, total
from bulkslot import Slot
svc, reps = sys.argv[1], int(sys.argv[2])
slot = Slot(svc)
pid = slot.pid
rates = []
J = G = T = 0.0
for rep in range(reps):
    slot.drain(0.2); time.sleep(0.3)
    j0, g0, t0 = proc_cpu(pid), pg(), total()
    t = time.monotonic(); slot.post_interfaces("bc"); s = time.monotonic() - t
    j1, g1, t1 = proc_cpu(pid), pg(), total()
    J += j1 - j0; G += g1 - g0; T += t1 - t0
    rates.append(1000 / s)
print(" ".join(f"{r:.0f}" for r in rates))
print(f"median {statistics.median(rates):.0f} objects/s; CPU ms per request: java {J/reps:.0f}  postgres {G/reps:.0f}  rest {(T-J-G)/reps:.0f} (read around each request, with the outbox drained before it)")
