package admin

import "github.com/markuproom/markuproom/templates"

// OverviewView is the console's home: its charts and the organization
// filter (every filtered view is a URL: /admin?org=ID).
type OverviewView struct {
	// Action is the overview's own address, where the filter is sent.
	Action        string
	Organizations []templates.OptionView
	// OrganizationID is the filter as given ("" for all); Scope names it
	// in words ("All organizations", "Acme").
	OrganizationID, Scope string
	Charts                []ChartView
}
