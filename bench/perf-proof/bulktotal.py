#!/usr/bin/env python3
"""bulktotal.py SVC REPS: REPS back-to-back POSTs of 1,000 interfaces, then waits until the outbox is drained; CPU ms per request of the machine, the JVM and postgres over the whole (relay included)."""
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proccpu import proc_cpu, pg, total
from bulkslot import Slot
svc, reps = sys.argv[1], int(sys.argv[2])
slot = Slot(svc)
pid = slot.pid
slot.drain(0.05); time.sleep(0.5)
j0, g0, t0, w0 = proc_cpu(pid), pg(), total(), time.monotonic()
for rep in range(reps):
    slot.post_interfaces("bt")
w1 = time.monotonic()
slot.drain(0.05)
j1, g1, t1 = proc_cpu(pid), pg(), total()
print(f"{svc}: {reps*1000/(w1-w0):.0f} objects/s; CPU ms per 1000: machine {(t1-t0)/reps:.0f}, java {(j1-j0)/reps:.0f}, postgres {(g1-g0)/reps:.0f} (drain polling included)")
