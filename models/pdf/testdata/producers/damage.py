#!/usr/bin/env python3
"""Applies one transformation that real files go through on their way to an upload.

Usage: damage.py MODE IN OUT, MODE one of
  shift        insert bytes after the header: every cross-reference offset is wrong
  squeeze      delete the white space between a dictionary's `>>` and `endobj`
               (five times in the file's first half): later offsets are off by a few bytes
  startxref    a wrong number after the last `startxref`
  crlf         every LF turned into CR LF (a text-mode transfer)
  noeof        the final `%%EOF` marker stripped, every object still whole
  truncate     only the first 40 % of the file (a download cut short)
  incremental  an incremental update appended: a new /Info dictionary, a
               cross-reference section for it and a trailer with /Prev
               (classic cross-reference tables only)
"""
import re
import sys

mode, src, dst = sys.argv[1:4]
data = open(src, "rb").read()


def last_startxref(b):
    m = list(re.finditer(rb"startxref\s+(\d+)", b))
    if not m:
        sys.exit("damage.py: no startxref in " + src)
    return m[-1]


if mode == "shift":
    nl = data.index(b"\n") + 1
    data = data[:nl] + b"%" + b"-" * 40 + b" inserted by a mail gateway\n" + data[nl:]
elif mode == "squeeze":
    half, out, pos, n = len(data) // 2, [], 0, 0
    for m in re.finditer(rb">>(\s+)endobj", data[:half]):
        out.append(data[pos:m.start(1)])
        pos = m.end(1)
        n += 1
        if n == 5:
            break
    if n == 0:
        sys.exit("damage.py: nothing to squeeze in " + src)
    out.append(data[pos:])
    data = b"".join(out)
elif mode == "startxref":
    m = last_startxref(data)
    wrong = str(int(m.group(1)) + 13).encode()
    data = data[:m.start(1)] + wrong + data[m.end(1):]
elif mode == "crlf":
    data = data.replace(b"\n", b"\r\n")
elif mode == "noeof":
    i = data.rindex(b"%%EOF")
    data = data[:i].rstrip(b"\r\n") + b"\n"
elif mode == "truncate":
    data = data[: len(data) * 40 // 100]
elif mode == "incremental":
    m = last_startxref(data)
    prev = int(m.group(1))
    tail = data[prev:]
    if not tail.startswith(b"xref"):
        sys.exit("damage.py: incremental needs a classic cross-reference table")
    trailer = tail[tail.index(b"trailer"):]
    size = int(re.search(rb"/Size\s+(\d+)", trailer).group(1))
    root = re.search(rb"/Root\s+(\d+\s+\d+\s+R)", trailer).group(1)
    body = data if data.endswith(b"\n") else data + b"\n"
    off = len(body)
    obj = (b"%d 0 obj\n<< /Title (Services Agreement) /Producer (incremental update by damage.py) "
           b"/ModDate (D:20261126090000Z) >>\nendobj\n" % size)
    xref_at = off + len(obj)
    xref = b"xref\n%d 1\n%010d 00000 n \n" % (size, off)
    trl = (b"trailer\n<< /Size %d /Root %s /Info %d 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n"
           % (size + 1, root, size, prev, xref_at))
    data = body + obj + xref + trl
else:
    sys.exit("damage.py: unknown mode " + mode)
open(dst, "wb").write(data)
