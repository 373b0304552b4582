// Package detect finds the tags a PDF carries itself: text tags written into
// the document ({{signature|1}}), its form fields, and printed labels next to
// a blank line or box ("Signature ______") that suggest a field. It works on
// the layout package pdf reads within its caps (pdf.Limits.ReadLayout) and
// touches neither a database nor HTTP.
//
// Positions are PDF user-space points, like the tags of the API (the Tag
// schema of the OpenAPI document):
// x, y is the bottom-left corner. Reasoning about "to the right of" and
// "above" happens in display space (the page as shown, after its CropBox and
// /Rotate), so rotated and cropped pages read the way their reader sees them.
package detect
