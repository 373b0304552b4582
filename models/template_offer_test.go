package models

import "testing"

func TestCarriesTemplate(t *testing.T) {
	t.Parallel()
	d := TransactionDocument{Tags: []Tag{
		{CustomData: RawJSON(`{"note":"tpl-1"}`)},
		{CustomData: RawJSON(`{"x":1,"template":"tpl-2","templateVersion":3}`)},
		{},
	}}
	for _, tc := range []struct {
		id   string
		want bool
	}{{"tpl-2", true}, {"tpl-1", false}, {"tpl-3", false}, {"", false}} {
		if got := d.CarriesTemplate(tc.id); got != tc.want {
			t.Errorf("CarriesTemplate(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}
