"""Verifies the DKIM signatures of the message on stdin with dkimpy (Debian: python3-dkim), an implementation
independent of the one that signed. The key records come from the arguments (name=value ...), as DNS would answer
them. Prints `pass`, or `fail: <reason>`, and exits 0; a problem with the script's own input exits 2."""
import sys

import dkim

records = {}
for arg in sys.argv[1:]:
    name, _, value = arg.partition("=")
    records[name.lower().rstrip(".")] = value.encode()


def dnsfunc(name, timeout=5):
    key = (name.decode() if isinstance(name, bytes) else name).lower().rstrip(".")
    return records.get(key)


message = sys.stdin.buffer.read()
if not message or not records:
    sys.exit(2)
signatures = [line for line in message.split(b"\r\n\r\n", 1)[0].split(b"\r\n") if line.lower().startswith(b"dkim-signature:")]
if not signatures:
    print("fail: no DKIM-Signature")
    sys.exit(0)
d = dkim.DKIM(message)
try:
    ok = all(d.verify(idx=i, dnsfunc=dnsfunc) for i in range(len(signatures)))
    print("pass" if ok else "fail: signature did not verify")
except dkim.DKIMException as err:
    print(f"fail: {err}")
