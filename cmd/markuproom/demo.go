package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/markuproom/markuproom/models"
)

// printDemo shows the demo data created on first start, in one block.
func printDemo(w io.Writer, baseURL string, d *models.Demo) {
	rule := strings.Repeat("─", 78)
	location := baseURL + d.Document.LocationPath()
	fmt.Fprintf(w, `%s
Markup Room demo data (created now; the secrets below are shown only once)

  Organization   %s (id %d)
  Sender         %s <%s>  senderId %q
  Admin user     %s  password %s
  Admin console  %s/admin
  API token      %s
  Sample PDF     %q, %d pages
                 id        %s
                 gcsRefId  %s
                 location  %s
  Second PDF     %q, %d pages (in the Markup Room too)

  Markup Room    %s
                 (open it in a browser; valid until %s)

Try it:
  curl -H "Authorization: Bearer %s" %s/api/v1/documents/%s
%s
`, rule,
		d.Organization.Name, d.Organization.ID,
		d.Sender.FullName(), d.Sender.Email, fmt.Sprint(d.Sender.ID),
		d.Admin.Email, d.AdminPassword, baseURL,
		d.Token,
		d.Document.Title, d.Document.PageCount,
		d.Document.ID, d.Document.ObjectKey, location,
		d.Disclosure.Title, d.Disclosure.PageCount,
		baseURL+models.RoomURLPath(d.RoomToken), d.Room.ExpiresAt.Format("2006-01-02 15:04 MST"),
		d.Token, baseURL, d.Document.ID,
		rule)
}

// printDemoOnRecord tells, on a start after the first, that the demo data
// is there and how to open a new Markup Room in it (its secrets were shown
// once, on the first start, and are not again).
func printDemoOnRecord(w io.Writer, baseURL string, d *models.DemoOnRecord) {
	fmt.Fprintf(w, `The demo organization from the first start is here (its admin password and API token were shown then).
A new Markup Room URL in it: markuproom room create --org %d --sender %d --participant "Pat Buyer <pat.buyer@example.com>"
  or the admin console's New Markup Room: %s/admin/rooms/new
`, d.OrganizationID, d.SenderID, baseURL)
}
