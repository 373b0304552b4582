#!/usr/bin/python3
"""Writes the contract with Debian's Python producers: ReportLab (plain and
with an AcroForm text field), matplotlib's own PDF backend, cairo (pycairo)
and pikepdf (a document built object by object).

Usage: /usr/bin/python3 gen_py.py OUTDIR (Debian's python3 with
python3-reportlab, python3-matplotlib, python3-cairo, python3-pikepdf).
"""
import json
import os
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
with open(os.path.join(HERE, "contract.json"), encoding="utf-8") as f:
    c = json.load(f)
title, pages = c["title"], c["pages"]
W, H, M = 595.28, 841.89, 72


def reportlab(form):
    from reportlab.pdfgen import canvas
    from reportlab.lib.utils import simpleSplit
    name = "reportlab-form.pdf" if form else "reportlab.pdf"
    cv = canvas.Canvas(os.path.join(out, name), pagesize=(W, H))
    cv.setTitle(title)
    for i, paras in enumerate(pages):
        y = H - M
        if i == 0:
            cv.setFont("Times-Bold", 18)
            cv.drawString(M, y, title)
            y -= 36
        cv.setFont("Times-Roman", 12)
        for p in paras:
            for line in simpleSplit(p, "Times-Roman", 12, W - 2 * M):
                cv.drawString(M, y, line)
                y -= 15
            y -= 9
        if form and i == len(pages) - 1:
            cv.acroForm.textfield(name="client_name", tooltip="Client name", x=M, y=y - 30, width=250, height=20)
            cv.acroForm.textfield(name="client_signature", tooltip="Client signature", x=M, y=y - 70, width=250, height=20)
        cv.showPage()
    cv.save()


def matplotlib():
    import matplotlib as mpl
    mpl.use("pdf")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages
    with PdfPages(os.path.join(out, "matplotlib.pdf"), metadata={"Title": title}) as pdf:
        for i, paras in enumerate(pages):
            fig = plt.figure(figsize=(8.27, 11.69))
            y = 0.93
            if i == 0:
                fig.text(0.1, y, title, fontsize=18, weight="bold")
                y -= 0.05
            for p in paras:
                for line in textwrap.wrap(p, 80):
                    fig.text(0.1, y, line, fontsize=10, family="serif")
                    y -= 0.02
                y -= 0.012
            pdf.savefig(fig)
            plt.close(fig)


def cairo():
    import cairo as c
    surface = c.PDFSurface(os.path.join(out, "pycairo.pdf"), W, H)
    surface.set_metadata(c.PDFMetadata.TITLE, title)
    ctx = c.Context(surface)
    for i, paras in enumerate(pages):
        y = M
        if i == 0:
            ctx.select_font_face("DejaVu Serif", c.FONT_SLANT_NORMAL, c.FONT_WEIGHT_BOLD)
            ctx.set_font_size(18)
            ctx.move_to(M, y)
            ctx.show_text(title)
            y += 36
        ctx.select_font_face("DejaVu Serif", c.FONT_SLANT_NORMAL, c.FONT_WEIGHT_NORMAL)
        ctx.set_font_size(11)
        for p in paras:
            for line in textwrap.wrap(p, 80):
                ctx.move_to(M, y)
                ctx.show_text(line)
                y += 15
            y += 9
        ctx.show_page()
    surface.finish()


def pikepdf():
    import pikepdf as pk
    pdf = pk.new()
    font = pdf.make_indirect(pk.Dictionary(Type=pk.Name.Font, Subtype=pk.Name.Type1, BaseFont=pk.Name("/Times-Roman")))
    for i, paras in enumerate(pages):
        ops, y = [], H - M
        if i == 0:
            ops.append(f"BT /F1 18 Tf {M} {y:.2f} Td ({title}) Tj ET")
            y -= 36
        for p in paras:
            for line in textwrap.wrap(p, 85):
                esc = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                ops.append(f"BT /F1 12 Tf {M} {y:.2f} Td ({esc}) Tj ET")
                y -= 15
            y -= 9
        page = pk.Page(pk.Dictionary(
            Type=pk.Name.Page, MediaBox=[0, 0, W, H],
            Resources=pk.Dictionary(Font=pk.Dictionary(F1=font)),
            Contents=pdf.make_stream("\n".join(ops).encode("latin-1"))))
        pdf.pages.append(page)
    pdf.docinfo["/Title"] = title
    pdf.save(os.path.join(out, "pikepdf.pdf"))


for fn in (lambda: reportlab(False), lambda: reportlab(True), matplotlib, cairo, pikepdf):
    try:
        fn()
    except Exception as e:  # a producer that is not installed is left out
        print("gen_py:", e, file=sys.stderr)
