# Writes the contract with Ruby's Prawn (Debian's ruby-prawn).
# Usage: ruby gen_ruby.rb OUTDIR
require "json"
require "prawn"

out = ARGV[0]
c = JSON.parse(File.read(File.join(__dir__, "contract.json")))
Prawn::Document.generate(File.join(out, "ruby-prawn.pdf"), page_size: "A4", margin: 72, info: { Title: c["title"] }) do |pdf|
  c["pages"].each_with_index do |paras, i|
    pdf.start_new_page if i.positive?
    if i.zero?
      pdf.font("Times-Roman", style: :bold, size: 18) { pdf.text c["title"] }
      pdf.move_down 12
    end
    pdf.font("Times-Roman", size: 12)
    paras.each do |p|
      pdf.text p
      pdf.move_down 9
    end
  end
end
