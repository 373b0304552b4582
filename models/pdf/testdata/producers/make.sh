#!/usr/bin/env bash
# Regenerates the producer corpus: the contract of contract.json written by
# real producers, some of those files passed through the transformations real
# files go through (qpdf rewrites and encryption, cross-reference damage,
# an incremental update), and the negative cases; then manifest.py writes
# manifest.json with what pdfinfo says about each file.
#
# It documents how each file was made; CI does not run it (the files are
# committed). Run as root on Debian 12 (bookworm):
#   models/pdf/testdata/producers/make.sh [--install] [OUTDIR]
# --install first installs the producers (Debian packages, npm packages in
# /tmp/pdfgen, Go modules in a scratch module in /tmp/pdfgen-go). OUTDIR
# defaults to this folder. docs/testing.md describes the corpus.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
NPM_DIR=/tmp/pdfgen
GO_DIR=/tmp/pdfgen-go
PY=/usr/bin/python3 # Debian's, with python3-reportlab and friends

install=""
if [ "${1:-}" = "--install" ]; then install=1; shift; fi
OUT=${1:-$HERE}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -n "$install" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends \
    poppler-utils qpdf ghostscript groff enscript a2ps librsvg2-bin paps img2pdf mupdf-tools \
    python3-reportlab python3-matplotlib python3-pikepdf python3-cairo weasyprint wkhtmltopdf \
    pdftk-java php-cli php-fpdf php-tcpdf libpdf-api2-perl ruby ruby-prawn pango1.0-tools \
    libreoffice-writer-nogui texlive-latex-base chromium graphicsmagick \
    fonts-dejavu-core fonts-liberation2 >/dev/null
  npm i --silent --prefix "$NPM_DIR" pdf-lib jspdf pdfkit pdfmake
  mkdir -p "$GO_DIR"
  (cd "$GO_DIR" && { [ -f go.mod ] || go mod init pdfgen >/dev/null 2>&1; } &&
    go get github.com/go-pdf/fpdf@latest github.com/signintech/gopdf@latest github.com/pdfcpu/pdfcpu@v0.15.0)
fi

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
LIST="$W/list.tsv" # file, producer, transformation, expected refusal code (negatives only)
: >"$LIST"
record() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" >>"$LIST"; }

deb() { dpkg-query -W -f='${Version}' "$1" | sed 's/^[0-9]*://; s/.*really//; s/[-+~].*//; s/\.dfsg.*//'; }
npmv() { node -p "require('$NPM_DIR/node_modules/$1/package.json').version"; }
gov() { (cd "$GO_DIR" && go list -m -f '{{.Version}}' "$1"); }
GS="Ghostscript $(deb ghostscript)"
QPDF="qpdf $(deb qpdf)"

"$PY" "$HERE/sources.py" "$W"
cd "$W"

# ---- producers ----------------------------------------------------------
NODE_PATH="$NPM_DIR/node_modules" node "$HERE/gen_node.mjs" "$OUT" 2>/dev/null
record pdflib.pdf "pdf-lib $(npmv pdf-lib)" original
record pdflib-form.pdf "pdf-lib $(npmv pdf-lib)" "original, form: text field and unsigned signature field"
record jspdf.pdf "jsPDF $(npmv jspdf)" original
record jspdf-form.pdf "jsPDF $(npmv jspdf)" "original, AcroForm: two text fields without /DA"
record pdfkit.pdf "PDFKit $(npmv pdfkit)" original
record pdfmake.pdf "pdfmake $(npmv pdfmake)" original

"$PY" "$HERE/gen_py.py" "$OUT"
record reportlab.pdf "ReportLab $(deb python3-reportlab)" original
record reportlab-form.pdf "ReportLab $(deb python3-reportlab)" "original, AcroForm: two text fields"
record matplotlib.pdf "matplotlib $(deb python3-matplotlib) (PDF backend)" original
record pycairo.pdf "cairo $(deb libcairo2) via pycairo $(deb python3-cairo)" original
record pikepdf.pdf "pikepdf $(deb python3-pikepdf) (qpdf $(deb libqpdf29))" "original, built object by object"

cp "$HERE/gogen/main.go" "$GO_DIR/main.go"
(cd "$GO_DIR" && go build -o gogen . && ./gogen "$HERE/contract.json" "$OUT" /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf)
record go-fpdf.pdf "go-pdf/fpdf $(gov github.com/go-pdf/fpdf)" original
record go-gopdf.pdf "signintech/gopdf $(gov github.com/signintech/gopdf)" original
record go-pdfcpu.pdf "pdfcpu $(gov github.com/pdfcpu/pdfcpu) (create)" original

php "$HERE/gen_php.php" "$OUT"
record php-fpdf.pdf "FPDF (PHP) $(deb php-fpdf)" original
record php-tcpdf.pdf "TCPDF $(deb php-tcpdf)" original
perl "$HERE/gen_perl.pl" "$OUT"
record perl-pdf-api2.pdf "PDF::API2 $(deb libpdf-api2-perl)" original
ruby "$HERE/gen_ruby.rb" "$OUT"
record ruby-prawn.pdf "Prawn $(deb ruby-prawn)" original

LO="LibreOffice $(deb libreoffice-writer-nogui)"
soffice --headless --convert-to pdf --outdir "$W/lo" contract.fodt >/dev/null 2>&1
cp lo/contract.pdf "$OUT/libreoffice.pdf"
record libreoffice.pdf "$LO (Writer)" "original, from flat ODF"
soffice --headless --convert-to 'pdf:writer_web_pdf_Export:{"ExportFormFields":{"type":"boolean","value":"true"}}' \
  --outdir "$W/loform" contract-form.html >/dev/null 2>&1
cp loform/contract-form.pdf "$OUT/libreoffice-form.pdf"
record libreoffice-form.pdf "$LO (Writer/Web)" "original, from HTML with two text inputs exported as form fields"

/usr/lib/chromium/chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --no-pdf-header-footer --print-to-pdf="$OUT/chromium.pdf" contract.html >/dev/null 2>&1
record chromium.pdf "Chromium $(deb chromium) (Skia/PDF)" "original, print to PDF"
wkhtmltopdf -q contract.html "$OUT/wkhtmltopdf.pdf" 2>/dev/null
record wkhtmltopdf.pdf "wkhtmltopdf $(deb wkhtmltopdf) (Qt $(deb libqt5core5a))" original
weasyprint contract.html "$OUT/weasyprint.pdf" 2>/dev/null
record weasyprint.pdf "WeasyPrint $(deb weasyprint)" original
pdflatex -interaction=batchmode contract.tex >/dev/null
cp contract.pdf "$OUT/pdflatex.pdf"
record pdflatex.pdf "pdfTeX (TeX Live $(deb texlive-binaries))" original

MUPDF="MuPDF $(deb mupdf-tools)"
mutool convert -O compress -o "$OUT/mutool-convert.pdf" contract.html
record mutool-convert.pdf "$MUPDF (mutool convert)" "original, from HTML"
mutool create -o "$OUT/mutool-create.pdf" mutool-page-1.txt mutool-page-2.txt mutool-page-3.txt
record mutool-create.pdf "$MUPDF (mutool create)" original

GROFF="groff $(deb groff)"
groff -Tpdf -P-pa4 contract.roff >"$OUT/gropdf.pdf"
record gropdf.pdf "$GROFF (gropdf)" original
groff -Tps -P-pa4 contract.roff >groff.ps && ps2pdf -sPAPERSIZE=a4 groff.ps "$OUT/groff-ps2pdf.pdf"
record groff-ps2pdf.pdf "$GROFF (grops) + $GS (ps2pdf)" original
enscript -q -B -M A4 -o enscript.ps contract.txt && ps2pdf enscript.ps "$OUT/enscript.pdf"
record enscript.pdf "enscript $(deb enscript) + $GS (ps2pdf)" original
a2ps -q --medium=A4 -1 -B --borders=no -o a2ps.ps contract.txt 2>/dev/null && ps2pdf a2ps.ps "$OUT/a2ps.pdf"
record a2ps.pdf "a2ps $(deb a2ps) + $GS (ps2pdf)" original
# paps draws every glyph as a path: one page keeps the file small.
sed -n '1,/\f/p' contract.txt | tr -d '\f' >page1.txt
paps --paper=A4 --font="Monospace 9" page1.txt >paps.ps 2>/dev/null && ps2pdf -dPDFSETTINGS=/ebook paps.ps "$OUT/paps.pdf"
record paps.pdf "paps $(deb paps) (pango) + $GS (ps2pdf)" "original, first page only"

rsvg-convert -f pdf -o "$OUT/rsvg.pdf" contract-1.svg contract-2.svg contract-3.svg
record rsvg.pdf "rsvg-convert $(deb librsvg2-bin) (cairo $(deb libcairo2))" "original, from SVG"
pango-view --no-display --output="$OUT/pango-view.pdf" --font="Serif 11" --width=450 --wrap=word contract.txt
record pango-view.pdf "pango-view $(deb pango1.0-tools) (cairo $(deb libcairo2))" "original, one long page"
pdftocairo -pdf "$OUT/libreoffice.pdf" "$OUT/pdftocairo.pdf"
record pdftocairo.pdf "pdftocairo (poppler $(deb poppler-utils), cairo $(deb libcairo2))" "rewrite of libreoffice.pdf"
pdftk "$OUT/chromium.pdf" cat output "$OUT/pdftk.pdf"
record pdftk.pdf "pdftk-java $(deb pdftk-java) (iText)" "rewrite of chromium.pdf (cat)"

# Scans: pages rendered to grey PNG at 50 dpi, then wrapped as PDF.
pdftoppm -r 50 -gray -png "$OUT/reportlab.pdf" scan
img2pdf -o "$OUT/img2pdf.pdf" scan-1.png scan-2.png scan-3.png
record img2pdf.pdf "img2pdf $(deb img2pdf)" "original, scanned pages (PNG, 50 dpi)"
gm convert scan-1.png scan-2.png scan-3.png "$OUT/graphicsmagick.pdf"
record graphicsmagick.pdf "GraphicsMagick $(deb graphicsmagick)" "original, scanned pages (PNG, 50 dpi)"

# ---- transformations ----------------------------------------------------
t() { # t NAME SOURCE PRODUCER-OF-SOURCE TRANSFORMATION COMMAND... ({} is the source, {out} the result)
  local name=$1 src=$2 producer=$3 what=$4
  shift 4
  local args=() a
  for a in "$@"; do a=${a//\{out\}/$OUT/$name}; args+=("${a//\{\}/$OUT/$src}"); done
  "${args[@]}"
  record "$name" "$producer" "$what"
}
prod() { awk -F'\t' -v f="$1" '$1 == f { print $2 }' "$LIST"; }

for s in gropdf pdfkit; do
  t "$s.objstm.pdf" "$s.pdf" "$(prod "$s.pdf")" "$QPDF --object-streams=generate" qpdf --object-streams=generate {} {out}
done
for s in weasyprint wkhtmltopdf; do
  t "$s.linearized.pdf" "$s.pdf" "$(prod "$s.pdf")" "$QPDF --linearize" qpdf --linearize {} {out}
done
enc() { # enc SOURCE SUFFIX DESCRIPTION QPDF-ARGS...
  local s=$1 suffix=$2 what=$3
  shift 3
  t "$s.$suffix.pdf" "$s.pdf" "$(prod "$s.pdf")" "$QPDF $what, empty user password" \
    qpdf --allow-weak-crypto --encrypt "" owner "$@" -- {} {out}
}
enc reportlab aes256 "AES-256" 256
enc libreoffice aes256 "AES-256" 256
enc pdflib-form aes256 "AES-256" 256
enc go-fpdf aes128 "AES-128" 128 --use-aes=y
enc chromium aes128 "AES-128" 128 --use-aes=y
enc php-tcpdf rc4-128 "RC4-128" 128 --use-aes=n
enc enscript rc4-40 "RC4-40" 40

D() { "$PY" "$HERE/damage.py" "$@"; }
for s in pdfmake chromium; do
  t "$s.shifted.pdf" "$s.pdf" "$(prod "$s.pdf")" "bytes inserted after the header (every offset wrong)" D shift {} {out}
done
t perl-pdf-api2.squeezed.pdf perl-pdf-api2.pdf "$(prod perl-pdf-api2.pdf)" "line breaks deleted mid-file (later offsets wrong)" D squeeze {} {out}
for s in php-fpdf matplotlib; do
  t "$s.bad-startxref.pdf" "$s.pdf" "$(prod "$s.pdf")" "wrong startxref number" D startxref {} {out}
done
for s in reportlab pikepdf; do
  t "$s.crlf.pdf" "$s.pdf" "$(prod "$s.pdf")" "every LF turned into CR LF (text-mode transfer)" D crlf {} {out}
done
for s in ruby-prawn jspdf; do
  t "$s.no-eof.pdf" "$s.pdf" "$(prod "$s.pdf")" "final %%EOF stripped, objects whole" D noeof {} {out}
done
for s in reportlab-form php-tcpdf; do
  t "$s.incremental.pdf" "$s.pdf" "$(prod "$s.pdf")" "incremental update appended (new /Info, xref section with /Prev)" D incremental {} {out}
done
t groff-ps2pdf.pdflib-edit.pdf groff-ps2pdf.pdf "$(prod groff-ps2pdf.pdf) + pdf-lib $(npmv pdf-lib)" \
  "edited by pdf-lib (stamp on page 1), saved without object streams" \
  env NODE_PATH="$NPM_DIR/node_modules" node "$HERE/gen_node.mjs" - edit {} {out}

# ---- negatives ----------------------------------------------------------
cp contract.html "$OUT/neg-html.pdf"
record neg-html.pdf "HTML page" "saved as .pdf" not_pdf
D truncate "$OUT/chromium.pdf" "$OUT/neg-cut-40.pdf"
record neg-cut-40.pdf "$(prod chromium.pdf)" "download cut at 40 %" damaged_pdf
qpdf --encrypt user owner 256 -- "$OUT/reportlab.pdf" "$OUT/neg-user-password.pdf"
record neg-user-password.pdf "$(prod reportlab.pdf)" "$QPDF AES-256 with a user password (\"user\")" password_required
: >"$OUT/neg-empty.pdf"
record neg-empty.pdf "none" "empty file" empty_file
cp scan-1.png "$OUT/neg-png.pdf"
record neg-png.pdf "pdftoppm $(deb poppler-utils)" "PNG image named .pdf" not_pdf

"$PY" "$HERE/manifest.py" "$LIST" "$OUT"
