"""What a pynetbox script does first, at NetBox's default settings (LOGIN_REQUIRED=true).

Usage: pynetbox_smoke.py <base url> <token> <unique suffix>
Prints one "key=value" line per check; the Java test asserts them.
"""
import sys

import pynetbox

url, token, suffix = sys.argv[1], sys.argv[2], sys.argv[3]

# pynetbox < 7.3.4 reads the version without sending its token.
print("version=" + pynetbox.api(url).version)

nb = pynetbox.api(url, token=token)
site = nb.dcim.sites.create(name="pynetbox " + suffix, slug="pynetbox-" + suffix)
print("created=" + str(site.id))
print("fetched=" + nb.dcim.sites.get(slug="pynetbox-" + suffix).name)
print("filtered=" + str(len(list(nb.dcim.sites.filter(name__ic="pynetbox " + suffix)))))
site.delete()
print("deleted=" + str(nb.dcim.sites.get(slug="pynetbox-" + suffix)))
