package handlers

// shortIDLength is how many of an id's last characters the console's lists
// show: a UUIDv7 begins with its time, so rows made in one second share the
// start; the end is random.
const shortIDLength = 8

// shortID is the end of id the console shows in a list (the copy button
// copies the whole id).
func shortID(id string) string {
	if len(id) <= shortIDLength {
		return id
	}
	return id[len(id)-shortIDLength:]
}
