#!/usr/bin/env python3
"""Writes the contract of contract.json in the source formats the producers read.

Usage: sources.py OUTDIR. Writes contract.txt (pages split by form feeds),
contract.html (CSS page breaks), contract-form.html (the same with a text
field), contract.roff (groff, .bp between pages), contract-N.svg (one per page),
contract.tex, contract.fodt (LibreOffice flat ODF) and mutool-page-N.txt
(page descriptions for mutool create).
"""
import html
import json
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
with open(os.path.join(HERE, "contract.json"), encoding="utf-8") as f:
    c = json.load(f)
title, pages = c["title"], c["pages"]


def write(name, text):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(text)


# Plain text, 72 columns, a form feed between pages.
txt = []
for i, page in enumerate(pages):
    lines = [title.upper(), ""] if i == 0 else []
    for p in page:
        lines += textwrap.wrap(p, 72) + [""]
    txt.append("\n".join(lines))
write("contract.txt", "\f".join(txt))


def html_doc(form):
    body = []
    for i, page in enumerate(pages):
        style = ' style="page-break-before: always"' if i else ""
        body.append(f"<section{style}>")
        if i == 0:
            body.append(f"<h1>{html.escape(title)}</h1>")
        for p in page:
            body.append(f"<p>{html.escape(p)}</p>")
        if form and i == len(pages) - 1:
            body.append('<form><p>Client name: <input type="text" name="client_name" size="40"></p>'
                        '<p>Client signature: <input type="text" name="client_signature" size="40"></p></form>')
        body.append("</section>")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>' + html.escape(title) +
            '</title><style>@page { size: A4; margin: 2cm } body { font-family: serif; font-size: 12pt }</style>'
            "</head><body>\n" + "\n".join(body) + "\n</body></html>\n")


write("contract.html", html_doc(False))
write("contract-form.html", html_doc(True))


def roff_escape(s):
    s = s.replace("\\", "\\e")
    return "\\&" + s if s[:1] in ".'" else s


roff = [".ll 6.5i", ".po 1i", ".ps 12", ".vs 14"]
for i, page in enumerate(pages):
    if i:
        roff.append(".bp")
    if i == 0:
        roff += [".ce", ".ft B", roff_escape(title), ".ft R", ".sp"]
    for p in page:
        roff += [roff_escape(p), ".sp"]
write("contract.roff", "\n".join(roff) + "\n")

for i, page in enumerate(pages):
    y, rows = 80, []
    if i == 0:
        rows.append(f'<text x="72" y="{y}" font-size="20" font-weight="bold">{html.escape(title)}</text>')
        y += 36
    for p in page:
        for line in textwrap.wrap(p, 80):
            rows.append(f'<text x="72" y="{y}">{html.escape(line)}</text>')
            y += 16
        y += 10
    write(f"contract-{i + 1}.svg",
          '<svg xmlns="http://www.w3.org/2000/svg" width="595" height="842" viewBox="0 0 595 842" '
          'font-family="DejaVu Serif" font-size="11">\n<rect width="595" height="842" fill="white"/>\n' +
          "\n".join(rows) + "\n</svg>\n")


def tex_escape(s):
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ('"', "''")):
        s = s.replace(a, b)
    return s


tex = [r"\documentclass[12pt]{article}", r"\begin{document}", r"\section*{" + tex_escape(title) + "}"]
for i, page in enumerate(pages):
    if i:
        tex.append(r"\newpage")
    tex += [tex_escape(p) + "\n" for p in page]
tex.append(r"\end{document}")
write("contract.tex", "\n".join(tex) + "\n")

# LibreOffice flat ODF text document with page breaks.
paras = []
for i, page in enumerate(pages):
    for j, p in enumerate(page):
        style = "Break" if i and j == 0 else "Standard"
        paras.append(f'<text:p text:style-name="{style}">{html.escape(p)}</text:p>')
write("contract.fodt", f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles>
<style:style style:name="Break" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:break-before="page"/></style:style>
</office:automatic-styles>
<office:body><office:text>
<text:h text:outline-level="1">{html.escape(title)}</text:h>
{chr(10).join(paras)}
</office:text></office:body></office:document>
''')

# mutool create: one page description per file (resources as %% comments, then content).
for i, page in enumerate(pages):
    ops, y = ["%%MediaBox 0 0 595 842", "%%Font F1 Times-Roman", "%%Font F2 Times-Bold"], 770
    if i == 0:
        ops.append(f"BT /F2 18 Tf 72 {y} Td ({title}) Tj ET")
        y -= 36
    for p in page:
        for line in textwrap.wrap(p, 85):
            esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            ops.append(f"BT /F1 12 Tf 72 {y} Td ({esc}) Tj ET")
            y -= 15
        y -= 9
    write(f"mutool-page-{i + 1}.txt", "\n".join(ops) + "\n")
