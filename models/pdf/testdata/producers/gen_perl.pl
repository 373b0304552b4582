#!/usr/bin/perl
# Writes the contract with Perl's PDF::API2 (Debian's libpdf-api2-perl).
# Usage: perl gen_perl.pl OUTDIR
use strict;
use warnings;
use File::Basename qw(dirname);
use JSON::PP;
use PDF::API2;

my $out = shift @ARGV;
open my $fh, '<:raw', dirname(__FILE__) . '/contract.json' or die $!;
my $c = decode_json(do { local $/; <$fh> });
my $pdf = PDF::API2->new;
$pdf->info(Title => $c->{title});
my $font = $pdf->corefont('Times-Roman');
my $bold = $pdf->corefont('Times-Bold');
my $i = 0;
for my $paras (@{ $c->{pages} }) {
    my $page = $pdf->page;
    $page->mediabox('A4');
    my $text = $page->text;
    my $y = 770;
    if ($i++ == 0) {
        $text->font($bold, 18);
        $text->translate(72, $y);
        $text->text($c->{title});
        $y -= 36;
    }
    $text->font($font, 12);
    for my $p (@$paras) {
        my @words = split / /, $p;
        my $line = '';
        for my $w (@words, undef) {
            if (!defined $w || ($line ne '' && $text->advancewidth("$line $w") > 451)) {
                $text->translate(72, $y);
                $text->text($line);
                $y -= 15;
                $line = defined $w ? $w : '';
                next;
            }
            $line = $line eq '' ? $w : "$line $w";
        }
        $y -= 9;
    }
}
$pdf->saveas("$out/perl-pdf-api2.pdf");
