#!/usr/bin/env python3
"""Writes the sources of the producers' contract and its revision (a
paragraph added to clause 1): base.html and revised.html for Chromium,
base.ps and revised.ps (Courier 10 pt, laid out here) for Ghostscript. See
README.md."""
import html
import random

random.seed(5)
vocab = ("agreement party parties services provider client shall will may must any all each such other fees payment "
         "invoice days notice written term termination renewal period breach cure remedy damages liability limit claims "
         "losses costs expenses confidential information purpose obligations rights license property deliverables "
         "schedule performance standards warranty compliance laws data processing security insurance coverage consent "
         "reasonable dispute resolution jurisdiction records audit access employees officers agents affiliates "
         "amendment waiver").split()


def prose(n):
    out = []
    for _ in range(n):
        w = [random.choice(vocab) for _ in range(random.randint(10, 20))]
        out.append(" ".join(w).capitalize() + ".")
    return " ".join(out)


sections = [("1. Definitions", ["Effective date:"]), ("2. Services", ["Client initials:", "Provider initials:"]),
            ("3. Fees", ["Fee approved by:"]), ("4. Term", ["Term starts on:"]),
            ("5. Confidentiality", ["Confidentiality officer:"]), ("6. Liability", ["Liability cap agreed:"]),
            ("7. Governing Law", ["Governing state:"]), ("8. Notices", ["Notice address:"]),
            ("9. Signatures", ["Client signature:", "Client name:", "Provider signature:", "Provider name:", "Signed on:"])]
paras = {s: [prose(random.randint(3, 6)), prose(random.randint(2, 5))] for s, _ in sections}
extra = prose(8)


def blocks(revised):
    b = [("h", "MASTER SERVICES AGREEMENT"), ("p", "This agreement is made between the client and the provider named below.")]
    for s, fields in sections:
        b += [("h", s), ("p", paras[s][0]), ("p", paras[s][1])]
        if revised and s == "1. Definitions":
            b.append(("p", extra))
        for f in fields:
            b.append(("f", f))
    return b


def htmldoc(revised):
    out = ['<!doctype html><html><head><meta charset="utf-8"><style>@page{size:letter;margin:1in} '
           'body{font:11pt "DejaVu Serif",serif;line-height:1.4} h2{font-size:13pt;margin:14pt 0 6pt} '
           'p{margin:0 0 8pt} .f{margin:14pt 0}</style></head><body>']
    for k, t in blocks(revised):
        if k == "h":
            out.append(f"<h2>{html.escape(t)}</h2>")
        elif k == "p":
            out.append(f"<p>{html.escape(t)}</p>")
        else:
            out.append(f'<p class="f">{html.escape(t)} ______________________</p>')
    out.append("</body></html>")
    return "\n".join(out)


def psdoc(revised):
    width, height, margin = 612, 792, 72
    cols = int((width - 2 * margin) / 6)
    pages = [[]]
    y = height - margin

    def line(t, size=10):
        nonlocal y
        if y < margin:
            pages.append([])
            y = height - margin
        pages[-1].append((margin, y, size, t))
        y -= 14 if size == 10 else 18

    for k, t in blocks(revised):
        if k == "h":
            y -= 6
            line(t, 12)
        elif k == "p":
            cur = ""
            for w in t.split():
                if cur and len(cur) + 1 + len(w) > cols:
                    line(cur)
                    cur = w
                else:
                    cur = (cur + " " + w).strip()
            if cur:
                line(cur)
            y -= 6
        else:
            y -= 8
            line(t + " ______________________")
            y -= 8

    def esc(s):
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    out = ["%!PS-Adobe-3.0", f"%%Pages: {len(pages)}", "%%EndComments"]
    for i, p in enumerate(pages):
        out.append(f"%%Page: {i + 1} {i + 1}")
        out.append("<< /PageSize [612 792] >> setpagedevice")
        for x, y, s, t in p:
            out.append(f"/Courier findfont {s} scalefont setfont {x} {y} moveto ({esc(t)}) show")
        out.append("showpage")
    out.append("%%EOF")
    return "\n".join(out) + "\n"


for name, revised in (("base", False), ("revised", True)):
    with open(name + ".html", "w") as f:
        f.write(htmldoc(revised))
    with open(name + ".ps", "w") as f:
        f.write(psdoc(revised))
