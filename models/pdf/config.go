package pdf

import (
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
)

// configDirOff makes sure pdfcpu never creates its config directory under $HOME.
var configDirOff sync.Once

// newConfig returns a fresh pdfcpu configuration for offline, read-only
// validation. It uses pdfcpu's relaxed mode: strict mode rejects the output of
// Chromium, Ghostscript, Cairo and MuPDF (missing FirstChar on simple fonts,
// Type3 fonts in PDF 1.4 files, dates without seconds), and the damage relaxed
// mode would repair is caught by this package's structural checks first.
// pdfcpu's own decode limit is lowered to the per-stream cap of l (the
// pre-scan has already refused anything larger; this is the second belt).
func newConfig(l Limits) *model.Configuration {
	configDirOff.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.Cmd = model.VALIDATE
	conf.ValidationMode = model.ValidationRelaxed
	conf.Optimize = false
	conf.ValidateLinks = false
	conf.Offline = true
	conf.DecodeAllStreams = false
	conf.Limits.MaxDecodeBytes = l.withDefaults().MaxStreamBytes
	return conf
}
