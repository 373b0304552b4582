package templates

import "strconv"

// Plural writes a count with its noun: "1 page" / "3 pages".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
