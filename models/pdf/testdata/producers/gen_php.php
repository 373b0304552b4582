<?php
// Writes the contract with PHP's FPDF and TCPDF (Debian's php-fpdf and
// php-tcpdf). Usage: php gen_php.php OUTDIR
$out = $argv[1];
$c = json_decode(file_get_contents(__DIR__ . '/contract.json'), true);

require_once '/usr/share/php/fpdf/fpdf.php';
$f = new FPDF('P', 'pt', 'A4');
$f->SetTitle($c['title']);
$f->SetMargins(72, 72, 72);
foreach ($c['pages'] as $i => $paras) {
    $f->AddPage();
    if ($i == 0) {
        $f->SetFont('Times', 'B', 18);
        $f->MultiCell(0, 24, $c['title']);
        $f->Ln(12);
    }
    $f->SetFont('Times', '', 12);
    foreach ($paras as $p) {
        $f->MultiCell(0, 15, $p);
        $f->Ln(9);
    }
}
$f->Output('F', $out . '/php-fpdf.pdf');

require_once '/usr/share/php/tcpdf/tcpdf.php';
$t = new TCPDF('P', 'pt', 'A4');
$t->SetTitle($c['title']);
$t->setPrintHeader(false);
$t->setPrintFooter(false);
$t->SetMargins(72, 72, 72);
$t->SetAutoPageBreak(true, 72);
foreach ($c['pages'] as $i => $paras) {
    $t->AddPage();
    if ($i == 0) {
        $t->SetFont('times', 'B', 18);
        $t->MultiCell(0, 24, $c['title'], 0, 'L');
        $t->Ln(12);
    }
    $t->SetFont('times', '', 12);
    foreach ($paras as $p) {
        $t->MultiCell(0, 15, $p, 0, 'L');
        $t->Ln(9);
    }
}
$t->Output($out . '/php-tcpdf.pdf', 'F');
