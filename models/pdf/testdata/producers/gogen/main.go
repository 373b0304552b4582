// Command gogen writes the contract with Go producers: go-pdf/fpdf,
// signintech/gopdf and pdfcpu's create (JSON description). make.sh copies it
// into a scratch module of its own (it is not part of the project's module).
//
// Usage: gogen CONTRACT.json OUTDIR TTF
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-pdf/fpdf"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/signintech/gopdf"
)

type contract struct {
	Title string     `json:"title"`
	Pages [][]string `json:"pages"`
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gogen CONTRACT.json OUTDIR TTF")
		os.Exit(2)
	}
	raw, err := os.ReadFile(os.Args[1])
	check(err)
	var c contract
	check(json.Unmarshal(raw, &c))
	out := os.Args[2]
	check(writeFpdf(c, filepath.Join(out, "go-fpdf.pdf")))
	check(writeGopdf(c, filepath.Join(out, "go-gopdf.pdf"), os.Args[3]))
	check(writePdfcpu(c, filepath.Join(out, "go-pdfcpu.pdf")))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gogen:", err)
		os.Exit(1)
	}
}

func writeFpdf(c contract, name string) error {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetTitle(c.Title, true)
	f.SetMargins(72, 72, 72)
	for i, paras := range c.Pages {
		f.AddPage()
		if i == 0 {
			f.SetFont("Times", "B", 18)
			f.MultiCell(0, 24, c.Title, "", "L", false)
			f.Ln(12)
		}
		f.SetFont("Times", "", 12)
		for _, p := range paras {
			f.MultiCell(0, 15, p, "", "L", false)
			f.Ln(9)
		}
	}
	return f.OutputFileAndClose(name)
}

func writeGopdf(c contract, name, ttf string) error {
	var g gopdf.GoPdf
	g.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	g.SetInfo(gopdf.PdfInfo{Title: c.Title})
	if err := g.AddTTFFont("serif", ttf); err != nil {
		return err
	}
	for i, paras := range c.Pages {
		g.AddPage()
		y := 72.0
		if i == 0 {
			if err := g.SetFont("serif", "", 18); err != nil {
				return err
			}
			g.SetXY(72, y)
			if err := g.Text(c.Title); err != nil {
				return err
			}
			y += 36
		}
		if err := g.SetFont("serif", "", 11); err != nil {
			return err
		}
		for _, p := range paras {
			lines, err := g.SplitText(p, 451)
			if err != nil {
				return err
			}
			for _, l := range lines {
				g.SetXY(72, y)
				if err := g.Text(l); err != nil {
					return err
				}
				y += 15
			}
			y += 9
		}
	}
	return g.WritePdf(name)
}

// writePdfcpu describes the pages as pdfcpu's create JSON and runs it.
func writePdfcpu(c contract, name string) error {
	type text struct {
		Value string    `json:"value"`
		Pos   []float64 `json:"pos"`
		Font  struct {
			Name string `json:"name"`
			Size int    `json:"size"`
		} `json:"font"`
	}
	type page struct {
		Content struct {
			Text []text `json:"text"`
		} `json:"content"`
	}
	desc := struct {
		Paper string          `json:"paper"`
		Pages map[string]page `json:"pages"`
	}{Paper: "A4P", Pages: map[string]page{}}
	for i, paras := range c.Pages {
		var pg page
		y := 770.0
		add := func(s string, size int) {
			t := text{Value: s, Pos: []float64{72, y}}
			t.Font.Name, t.Font.Size = "Times-Roman", size
			pg.Content.Text = append(pg.Content.Text, t)
			y -= float64(size) + 4
		}
		if i == 0 {
			add(c.Title, 18)
			y -= 12
		}
		for _, p := range paras {
			for _, l := range wrap(p, 85) {
				add(l, 11)
			}
			y -= 8
		}
		desc.Pages[fmt.Sprint(i+1)] = pg
	}
	raw, err := json.Marshal(desc)
	if err != nil {
		return err
	}
	api.DisableConfigDir()
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return api.Create(nil, strings.NewReader(string(raw)), f, nil)
}

func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
