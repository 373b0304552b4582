// Writes small, valid PDFs for the browser tests: pages of any size, with an
// optional CropBox and /Rotate, each with a grey frame, a heading and text
// lines (Helvetica, not embedded: pdf.js draws it from its standard fonts).

/**
 * texts: more lines of Helvetica at x, y (PDF points), such as text tags "{{signature|1}}";
 * lines: how many of the 12 "Line n of the agreement text" lines the page prints.
 * @param {{width:number,height:number,cropBox?:number[],rotate?:number,label?:string,lines?:number,texts?:{x:number,y:number,text:string,size?:number}[]}[]} pages
 * @returns {Buffer}
 */
export function makePDF(pages) {
  const objects = []; // index i holds object i+1
  const add = (body) => objects.push(body) && objects.length;
  const catalog = add(null);
  const pagesObj = add(null);
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids = [];
  pages.forEach((p, i) => {
    const [x0, y0, x1, y1] = p.cropBox || [0, 0, p.width, p.height];
    const label = (p.label || `Page ${i + 1}`).replace(/[()\\]/g, "");
    const lines = [
      "0.85 g", `${x0 + 18} ${y0 + 18} ${x1 - x0 - 36} ${y1 - y0 - 36} re f`,
      "1 g", `${x0 + 24} ${y0 + 24} ${x1 - x0 - 48} ${y1 - y0 - 48} re f`,
      "0 g", "BT", "/F1 22 Tf", `${x0 + 48} ${y1 - 72} Td`, `(${label}) Tj`, "ET",
    ];
    for (let l = 0; l < (p.lines ?? 12); l++) {
      const y = y1 - 120 - l * 22;
      if (y < y0 + 60) break;
      lines.push("BT", "/F1 11 Tf", `${x0 + 48} ${y} Td`, `(Line ${l + 1} of the agreement text on page ${i + 1}.) Tj`, "ET");
    }
    for (const t of p.texts || []) lines.push("BT", `/F1 ${t.size || 10} Tf`, `${t.x} ${t.y} Td`, `(${t.text.replace(/[()\\]/g, "\\$&")}) Tj`, "ET");
    const stream = lines.join("\n");
    const content = add(`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`);
    let dict = `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${p.width} ${p.height}]`;
    if (p.cropBox) dict += ` /CropBox [${p.cropBox.join(" ")}]`;
    if (p.rotate) dict += ` /Rotate ${p.rotate}`;
    dict += ` /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`;
    kids.push(add(dict));
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;

  let out = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** The mixed document of the editor tests: Letter, A4, landscape, a CropBox offset, /Rotate 90. */
export function mixedPDF() {
  return makePDF([
    { width: 612, height: 792, label: "Letter portrait" },
    { width: 595.28, height: 841.89, label: "A4 portrait" },
    { width: 792, height: 612, label: "Letter landscape" },
    { width: 612, height: 792, cropBox: [36, 72, 576, 720], label: "CropBox offset 36 72" },
    { width: 612, height: 792, rotate: 90, label: "Rotate 90" },
  ]);
}

/** A long document: n Letter pages. */
export function longPDF(n) {
  return makePDF(Array.from({ length: n }, (_, i) => ({ width: 612, height: 792, label: `Long document, page ${i + 1}` })));
}

/**
 * A page with three text tags (a signature and a date for signer 1, initials
 * for signer 2), one malformed text tag ("{{signature|1", not closed) and a
 * printed label with a blank ("Initials: ____", a suggested field).
 */
export function textTagsPDF() {
  return makePDF([
    {
      width: 612, height: 792, label: "Addendum with text tags",
      texts: [
        { x: 72, y: 330, text: "{{signature|1}}" },
        { x: 320, y: 330, text: "{{date|1}}" },
        { x: 72, y: 250, text: "{{initials|2}}" },
        { x: 72, y: 170, text: "{{signature|1" },
        { x: 320, y: 170, text: "Initials: __________" },
      ],
    },
  ]);
}

/**
 * A one-page rental application filled in with values (one per label, drawn
 * under it as a form filler draws them): the same form filled in otherwise
 * resembles its template (docs/decisions.md, "Template matching").
 */
export function rentalFormPDF(values) {
  const paragraphs = [
    "RESIDENTIAL RENTAL APPLICATION",
    "Each adult who will live in the unit completes a separate application.",
    "The landlord may verify the income, rental history and references given below,",
    "and a fee paid with this application is not refunded once the screening starts.",
  ];
  const labels = ["Applicant name:", "Current address:", "Monthly income:", "Previous landlord:", "Move in date:"];
  const texts = paragraphs.map((text, i) => ({ x: 72, y: 380 - i * 16, text }));
  labels.forEach((text, i) => {
    const y = 300 - i * 30;
    texts.push({ x: 72, y, text }, { x: 90, y: y - 12, text: values[i] });
  });
  return makePDF([{ width: 612, height: 792, label: "Rental application", texts }]);
}
