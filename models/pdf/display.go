package pdf

// Display space is the page as a viewer shows it: its CropBox turned
// clockwise by /Rotate, in points, with the origin at the bottom-left corner
// of what is shown and y upwards. It is the space of "to the right of" and
// "above"; tags are stored in user space (the OpenAPI document's Tag), as the editor's
// coordinate module (web/src/editor/coords.mjs) maps them.

// DisplaySize returns the width and height of the page as shown.
func (p Page) DisplaySize() (w, h float64) {
	if p.Rotate%180 == 0 {
		return p.CropBox.Width(), p.CropBox.Height()
	}
	return p.CropBox.Height(), p.CropBox.Width()
}

// ToDisplay maps a box from user space to display space.
func (p Page) ToDisplay(b Box) Box {
	x1, y1 := p.pointToDisplay(b.LLX, b.LLY)
	x2, y2 := p.pointToDisplay(b.URX, b.URY)
	return Box{LLX: x1, LLY: y1, URX: x2, URY: y2}.Normalized()
}

// FromDisplay maps a box from display space to user space.
func (p Page) FromDisplay(b Box) Box {
	x1, y1 := p.pointFromDisplay(b.LLX, b.LLY)
	x2, y2 := p.pointFromDisplay(b.URX, b.URY)
	return Box{LLX: x1, LLY: y1, URX: x2, URY: y2}.Normalized()
}

func (p Page) pointToDisplay(x, y float64) (float64, float64) {
	c := p.CropBox
	switch p.Rotate {
	case 90:
		return y - c.LLY, c.URX - x
	case 180:
		return c.URX - x, c.URY - y
	case 270:
		return c.URY - y, x - c.LLX
	}
	return x - c.LLX, y - c.LLY
}

func (p Page) pointFromDisplay(x, y float64) (float64, float64) {
	c := p.CropBox
	switch p.Rotate {
	case 90:
		return c.URX - y, c.LLY + x
	case 180:
		return c.URX - x, c.URY - y
	case 270:
		return c.LLX + y, c.URY - x
	}
	return c.LLX + x, c.LLY + y
}
