"""NetBox 4.5+ pass-through ports and a profiled cable, driven through pynetbox as its own
integration suite does for NetBox 4.6: front ports created with `rear_ports` (a list of
{rear_port, rear_port_position, position}), read back, filtered and re-mapped; a 1C4P cable from a
switch port to a patch panel's MPO rear port whose four front ports lead to four server ports;
the switch port's trace and connected endpoints follow the cable's lanes.

Usage: pynetbox_ports.py <base url> <token> <unique suffix>
Prints one "key=value" line per check; the Java test asserts them.
"""
import sys

import pynetbox

url, token, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
nb = pynetbox.api(url, token=token)

site = nb.dcim.sites.create(name="pyports " + suffix, slug="pyports-" + suffix)
manufacturer = nb.dcim.manufacturers.create(name="pyports " + suffix, slug="pyports-" + suffix)
device_type = nb.dcim.device_types.create(
    manufacturer=manufacturer.id, model="pyports " + suffix, slug="pyports-" + suffix
)
role = nb.dcim.device_roles.create(name="pyports " + suffix, slug="pyports-" + suffix)


def device(name):
    return nb.dcim.devices.create(
        name=name + "-" + suffix, site=site.id, device_type=device_type.id, role=role.id
    )


switch, panel, server = device("sw"), device("panel"), device("srv")
qsfp = nb.dcim.interfaces.create(device=switch.id, name="qsfp0", type="40gbase-x-qsfpp")
nics = [nb.dcim.interfaces.create(device=server.id, name="e%d" % i, type="10gbase-x-sfpp") for i in range(1, 5)]

rear = nb.dcim.rear_ports.create(name="MPO", device=panel.id, type="mpo", positions=4)
fronts = [
    nb.dcim.front_ports.create(
        name="LC%d" % lane,
        device=panel.id,
        type="lc",
        rear_ports=[{"rear_port": rear.id, "rear_port_position": lane, "position": 1}],
    )
    for lane in range(1, 5)
]
print("created_rear_ports=" + ",".join(
    "%s:%s:%s" % (f.rear_ports[0].position, f.rear_ports[0].rear_port, f.rear_ports[0].rear_port_position)
    for f in fronts
))
again = nb.dcim.front_ports.get(fronts[1].id)
print("fetched_rear_port_position=" + str(again.rear_ports[0].rear_port_position))
print("fetched_positions=" + str(again.positions))
print("rear_front_ports=" + ",".join(
    "%s>%s" % (m.position, m.front_port) for m in nb.dcim.rear_ports.get(rear.id).front_ports
))
print("filtered=" + str(len(list(nb.dcim.front_ports.filter(rear_port_id=rear.id)))))

# re-map LC4 to lane 4 of a second rear port, and back. pynetbox 7.8 saves a fetched front port
# whose rear_ports item was changed in place; 7.0's Record.save() cannot serialize the id-less
# items of that list (its PR #769 fixed that), so this goes through the endpoint's bulk update.
spare = nb.dcim.rear_ports.create(name="SPARE", device=panel.id, type="mpo", positions=4)
nb.dcim.front_ports.update(
    [{"id": fronts[3].id, "rear_ports": [{"rear_port": spare.id, "rear_port_position": 4, "position": 1}]}]
)
print("remapped=" + str(nb.dcim.front_ports.get(fronts[3].id).rear_ports[0].rear_port == spare.id))
nb.dcim.front_ports.update(
    [{"id": fronts[3].id, "rear_ports": [{"rear_port": rear.id, "rear_port_position": 4, "position": 1}]}]
)

trunk = nb.dcim.cables.create(
    a_terminations=[{"object_type": "dcim.interface", "object_id": qsfp.id}],
    b_terminations=[{"object_type": "dcim.rearport", "object_id": rear.id}],
    profile="single-1c4p",
)
print("profile=" + trunk.profile.value)
patches = [
    nb.dcim.cables.create(
        a_terminations=[{"object_type": "dcim.frontport", "object_id": f.id}],
        b_terminations=[{"object_type": "dcim.interface", "object_id": nic.id}],
    )
    for f, nic in zip(fronts, nics)
]

trace = nb.dcim.interfaces.get(qsfp.id).trace()
print("trace_hops=" + str(len(trace)))
print("trace_far_ends=" + ",".join(sorted(t.name for t in trace[-1])))
print("connected=" + ",".join(
    sorted(e.name for e in nb.dcim.interfaces.get(qsfp.id).connected_endpoints)
))
print("lane3_connected=" + ",".join(e.name for e in nb.dcim.interfaces.get(nics[2].id).connected_endpoints))

for cable in patches + [trunk]:
    cable.delete()
for d in (switch, panel, server):
    d.delete()
device_type.delete()
role.delete()
manufacturer.delete()
site.delete()
print("cleaned=" + str(nb.dcim.front_ports.get(fronts[0].id)))
