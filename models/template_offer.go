package models

import (
	"bytes"
	"encoding/json"
)

// CarriesTemplate tells whether the document already has tags of the
// template: a tag whose customData names it under "template", as an applied
// template's tags do (templateOrigin). The room offers no template a
// document already carries (docs/decisions.md, "Template offers in the room").
func (d *TransactionDocument) CarriesTemplate(templateID string) bool {
	if templateID == "" {
		return false
	}
	for i := range d.Tags {
		cd := d.Tags[i].CustomData
		if !bytes.Contains(cd, []byte(templateID)) {
			continue
		}
		var origin struct {
			Template string `json:"template"`
		}
		if json.Unmarshal(cd, &origin) == nil && origin.Template == templateID {
			return true
		}
	}
	return false
}
