// Writes the contract with the npm producers: pdf-lib (plain and with a form),
// jsPDF (plain and with an AcroForm text field, which jsPDF writes without
// /DA), PDFKit and pdfmake. Usage: node gen_node.mjs OUTDIR, with the
// packages installed in a scratch folder on NODE_PATH (see make.sh).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(path.join(process.env.NODE_PATH || ".", "x.js"));
const here = path.dirname(new URL(import.meta.url).pathname);
const out = process.argv[2];
const { title, pages } = JSON.parse(fs.readFileSync(path.join(here, "contract.json"), "utf8"));
const W = 595.28, H = 841.89, M = 72;

// wrap splits text into lines no wider than max under width(s).
function wrap(text, width, max) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? line + " " + word : word;
    if (line && width(next) > max) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

async function pdfLib(form) {
  const { PDFDocument, StandardFonts, PDFName, PDFString } = require("pdf-lib");
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.TimesRomanBold);
  let last;
  pages.forEach((paras, i) => {
    const page = doc.addPage([W, H]);
    let y = H - M;
    if (i === 0) { page.drawText(title, { x: M, y, size: 18, font: bold }); y -= 36; }
    for (const p of paras) {
      for (const l of wrap(p, (s) => font.widthOfTextAtSize(s, 12), W - 2 * M)) {
        page.drawText(l, { x: M, y, size: 12, font }); y -= 15;
      }
      y -= 9;
    }
    last = { page, y };
  });
  if (form) {
    const f = doc.getForm();
    const name = f.createTextField("client.name");
    name.addToPage(last.page, { x: M, y: last.y - 30, width: 250, height: 20 });
    // pdf-lib has no signature-field API: add an unsigned /FT /Sig widget by hand.
    const ctx = doc.context;
    const sig = ctx.obj({
      Type: "Annot", Subtype: "Widget", FT: "Sig", T: PDFString.of("client.signature"),
      Rect: [M, last.y - 90, M + 250, last.y - 50], F: 4, P: last.page.ref,
    });
    const sigRef = ctx.register(sig);
    last.page.node.addAnnot(sigRef);
    f.acroForm.addField(sigRef);
    f.acroForm.dict.set(PDFName.of("SigFlags"), ctx.obj(1));
  }
  fs.writeFileSync(path.join(out, form ? "pdflib-form.pdf" : "pdflib.pdf"), await doc.save());
}

// pdfLibUpdate loads a finished file, edits it (a stamp on page 1) and saves
// it as pdf-lib does: a full rewrite with a classic cross-reference table.
async function pdfLibEdit(src, dst) {
  const { PDFDocument, StandardFonts } = require("pdf-lib");
  const doc = await PDFDocument.load(fs.readFileSync(src));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.getPage(0).drawText("COPY", { x: 480, y: 800, size: 14, font });
  fs.writeFileSync(dst, await doc.save({ useObjectStreams: false }));
}

function jsPDF(form) {
  const { jsPDF: JsPDF, AcroFormTextField } = require("jspdf");
  const doc = new JsPDF({ unit: "pt", format: "a4" });
  doc.setProperties({ title });
  let y;
  pages.forEach((paras, i) => {
    if (i) doc.addPage();
    y = M;
    if (i === 0) { doc.setFont("times", "bold"); doc.setFontSize(18); doc.text(title, M, y); y += 36; }
    doc.setFont("times", "normal"); doc.setFontSize(12);
    for (const p of paras) {
      for (const l of doc.splitTextToSize(p, W - 2 * M)) { doc.text(l, M, y); y += 15; }
      y += 9;
    }
  });
  if (form) {
    const field = new AcroFormTextField();
    field.fieldName = "client_name";
    field.Rect = [M, y + 10, 250, 20];
    doc.addField(field);
    const sig = new AcroFormTextField();
    sig.fieldName = "client_signature";
    sig.Rect = [M, y + 50, 250, 20];
    doc.addField(sig);
  }
  fs.writeFileSync(path.join(out, form ? "jspdf-form.pdf" : "jspdf.pdf"), Buffer.from(doc.output("arraybuffer")));
}

function pdfKit() {
  const PDFDocument = require("pdfkit");
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: "A4", margin: M, info: { Title: title } });
    const chunks = [];
    doc.on("data", (c) => chunks.push(c));
    doc.on("end", () => { fs.writeFileSync(path.join(out, "pdfkit.pdf"), Buffer.concat(chunks)); resolve(); });
    pages.forEach((paras, i) => {
      if (i) doc.addPage();
      if (i === 0) doc.font("Times-Bold").fontSize(18).text(title).moveDown();
      doc.font("Times-Roman").fontSize(12);
      for (const p of paras) doc.text(p).moveDown(0.6);
    });
    doc.end();
  });
}

async function pdfMake() {
  const pdfmake = require("pdfmake");
  const Roboto = path.join(path.dirname(require.resolve("pdfmake/package.json")), "build", "fonts", "Roboto");
  const fonts = fs.existsSync(Roboto)
    ? { Roboto: { normal: path.join(Roboto, "Roboto-Regular.ttf"), bold: path.join(Roboto, "Roboto-Medium.ttf"),
                  italics: path.join(Roboto, "Roboto-Italic.ttf"), bolditalics: path.join(Roboto, "Roboto-MediumItalic.ttf") } }
    : { Roboto: { normal: "Times-Roman", bold: "Times-Bold", italics: "Times-Italic", bolditalics: "Times-BoldItalic" } };
  const content = [];
  pages.forEach((paras, i) => {
    paras.forEach((p, j) => {
      const item = { text: p, margin: [0, 0, 0, 8] };
      if (i && j === 0) item.pageBreak = "before";
      if (i === 0 && j === 0) content.push({ text: title, fontSize: 18, bold: true, margin: [0, 0, 0, 16] });
      content.push(item);
    });
  });
  const dd = { info: { title }, pageSize: "A4", pageMargins: [M, M, M, M], content, defaultStyle: { fontSize: 12 } };
  let buf;
  if (typeof pdfmake.setFonts === "function") {
    pdfmake.setFonts(fonts);
    buf = await pdfmake.createPdf(dd).getBuffer();
  } else {
    const Printer = require("pdfmake/src/printer");
    const doc = new Printer(fonts).createPdfKitDocument(dd);
    const chunks = [];
    buf = await new Promise((resolve) => { doc.on("data", (c) => chunks.push(c)); doc.on("end", () => resolve(Buffer.concat(chunks))); doc.end(); });
  }
  fs.writeFileSync(path.join(out, "pdfmake.pdf"), Buffer.from(buf));
}

if (process.argv[3] === "edit") {
  await pdfLibEdit(process.argv[4], process.argv[5]);
} else {
  await pdfLib(false);
  await pdfLib(true);
  jsPDF(false);
  jsPDF(true);
  await pdfKit();
  await pdfMake();
}
