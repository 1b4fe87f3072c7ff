"""NetBox 4.6's owners and tag changes as a pynetbox script uses them.

Usage: pynetbox_ownership.py <base url> <token> <unique suffix>
Prints one "key=value" line per check; the Java test asserts them.
"""
import sys

import pynetbox

url, token, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
nb = pynetbox.api(url, token=token)

group = nb.users.owner_groups.create(name="og " + suffix)
owner = nb.users.owners.create(name="owner " + suffix, group=group.id, description="network team")
print("owner_group=" + owner.group.name)
t1 = nb.extras.tags.create(name="t1 " + suffix, slug="t1-" + suffix)
t2 = nb.extras.tags.create(name="t2 " + suffix, slug="t2-" + suffix)
site = nb.dcim.sites.create(name="owned " + suffix, slug="owned-" + suffix, owner=owner.id, tags=[t1.id])
print("site_owner=" + nb.dcim.sites.get(site.id).owner.name)
print("by_owner=" + ",".join(s.slug for s in nb.dcim.sites.filter(owner_id=owner.id)))
print("by_owner_group=" + ",".join(s.slug for s in nb.dcim.sites.filter(owner_group=group.name)))
# a bulk update sends the body as given (a record's save() sends only its own fields)
nb.dcim.sites.update([{"id": site.id, "add_tags": [{"slug": t2.slug}]}])
print("tags_added=" + ",".join(sorted(t.slug for t in nb.dcim.sites.get(site.id).tags)))
nb.dcim.sites.update([{"id": site.id, "remove_tags": [{"slug": t1.slug}]}])
print("tags_removed=" + ",".join(sorted(t.slug for t in nb.dcim.sites.get(site.id).tags)))
site.delete()
owner.delete()
group.delete()
t1.delete()
t2.delete()
print("cleaned=" + str(nb.users.owners.get(name="owner " + suffix)))
