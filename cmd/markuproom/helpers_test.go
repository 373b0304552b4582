package main

import (
	"testing"

	"github.com/markuproom/markuproom/models/pdf/pdftest"
)

func samplePDF(t *testing.T) []byte { return pdftest.ThreePages(t) }
