#!/usr/bin/env python3
"""Writes manifest.json for the corpus: each file with its producer, the
transformation it went through, what pdfinfo (poppler) says about it, and for
the negative cases the refusal code the upload must answer with.

Usage: manifest.py LIST.tsv OUTDIR (LIST: file, producer, transformation, code).
"""
import hashlib
import json
import os
import re
import subprocess
import sys


def pdfinfo(path):
    """Returns (opens, pages) as poppler's pdfinfo reports them."""
    p = subprocess.run(["pdfinfo", path], capture_output=True, text=True, errors="replace")
    m = re.search(r"^Pages:\s+(\d+)$", p.stdout, re.M)
    if p.returncode != 0 or not m:
        return False, 0
    return True, int(m.group(1))


def main():
    lst, out = sys.argv[1], sys.argv[2]
    version = subprocess.run(["pdfinfo", "-v"], capture_output=True, text=True).stderr.splitlines()[0]
    files, problems = [], []
    with open(lst, encoding="utf-8") as f:
        for row in f:
            name, producer, transformation, code = row.rstrip("\n").split("\t")
            path = os.path.join(out, name)
            opens, pages = pdfinfo(path)
            data = open(path, "rb").read()
            entry = {"file": name, "producer": producer, "transformation": transformation,
                     "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                     "pdfinfo": {"opens": opens, "pages": pages}}
            if code:
                entry["refusal"] = code
                if opens:
                    problems.append(f"{name}: a negative case that poppler opens")
            elif not opens:
                problems.append(f"{name}: poppler does not open it and no refusal code is given")
            files.append(entry)
    manifest = {"poppler": version, "files": files}
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    opened = sum(e["pdfinfo"]["opens"] for e in files)
    print(f"{len(files)} files, poppler opens {opened}, {sum(e['bytes'] for e in files)} bytes")
    for p in problems:
        print("manifest.py:", p, file=sys.stderr)
    sys.exit(1 if problems else 0)


main()
